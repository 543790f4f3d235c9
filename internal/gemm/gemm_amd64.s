#include "textflag.h"

// func axpy4x16(k int, a *float32, ai, ap int, b *float32, ldb int, c *float32, ldc int)
// Y0–Y7 hold the 4×16 block (two 8-wide halves a row); each step broadcasts A(r,p) for the four
// rows against row p of B.
TEXT ·axpy4x16(SB), NOSPLIT, $0-64
	MOVQ k+0(FP), CX
	MOVQ a+8(FP), SI
	MOVQ ai+16(FP), R8
	SHLQ $2, R8            // A's row stride, bytes
	MOVQ ap+24(FP), R9
	SHLQ $2, R9            // A's step along k, bytes
	MOVQ b+32(FP), DI
	MOVQ ldb+40(FP), R10
	SHLQ $2, R10
	MOVQ c+48(FP), DX
	MOVQ ldc+56(FP), R11
	SHLQ $2, R11
	LEAQ (R8)(R8*2), R12   // three rows of A
	VXORPS Y0, Y0, Y0
	VXORPS Y1, Y1, Y1
	VXORPS Y2, Y2, Y2
	VXORPS Y3, Y3, Y3
	VXORPS Y4, Y4, Y4
	VXORPS Y5, Y5, Y5
	VXORPS Y6, Y6, Y6
	VXORPS Y7, Y7, Y7
	TESTQ CX, CX
	JE    store

loop:
	VMOVUPS      (DI), Y8
	VMOVUPS      32(DI), Y9
	VBROADCASTSS (SI), Y10
	VFMADD231PS  Y8, Y10, Y0
	VFMADD231PS  Y9, Y10, Y1
	VBROADCASTSS (SI)(R8*1), Y11
	VFMADD231PS  Y8, Y11, Y2
	VFMADD231PS  Y9, Y11, Y3
	VBROADCASTSS (SI)(R8*2), Y10
	VFMADD231PS  Y8, Y10, Y4
	VFMADD231PS  Y9, Y10, Y5
	VBROADCASTSS (SI)(R12*1), Y11
	VFMADD231PS  Y8, Y11, Y6
	VFMADD231PS  Y9, Y11, Y7
	ADDQ         R9, SI
	ADDQ         R10, DI
	DECQ         CX
	JNZ          loop

store:
	VMOVUPS Y0, (DX)
	VMOVUPS Y1, 32(DX)
	ADDQ    R11, DX
	VMOVUPS Y2, (DX)
	VMOVUPS Y3, 32(DX)
	ADDQ    R11, DX
	VMOVUPS Y4, (DX)
	VMOVUPS Y5, 32(DX)
	ADDQ    R11, DX
	VMOVUPS Y6, (DX)
	VMOVUPS Y7, 32(DX)
	VZEROUPPER
	RET

// func dot2x4(k int, a *float32, lda int, b *float32, ldb int, c *float32, ldc int)
// Y0–Y3 accumulate row 0 of A against rows 0–3 of B, Y4–Y7 row 1, eight values of k a step;
// horizontal adds then fold each accumulator to one value.
TEXT ·dot2x4(SB), NOSPLIT, $0-56
	MOVQ k+0(FP), CX
	SHRQ $3, CX            // steps of 8
	MOVQ a+8(FP), SI
	MOVQ lda+16(FP), R8
	SHLQ $2, R8
	MOVQ b+24(FP), DI
	MOVQ ldb+32(FP), R10
	SHLQ $2, R10
	MOVQ c+40(FP), DX
	MOVQ ldc+48(FP), R11
	SHLQ $2, R11
	LEAQ (R10)(R10*2), R12 // three rows of B
	VXORPS Y0, Y0, Y0
	VXORPS Y1, Y1, Y1
	VXORPS Y2, Y2, Y2
	VXORPS Y3, Y3, Y3
	VXORPS Y4, Y4, Y4
	VXORPS Y5, Y5, Y5
	VXORPS Y6, Y6, Y6
	VXORPS Y7, Y7, Y7
	TESTQ CX, CX
	JE    reduce

dloop:
	VMOVUPS     (SI), Y8
	VMOVUPS     (SI)(R8*1), Y9
	VMOVUPS     (DI), Y10
	VFMADD231PS Y10, Y8, Y0
	VFMADD231PS Y10, Y9, Y4
	VMOVUPS     (DI)(R10*1), Y11
	VFMADD231PS Y11, Y8, Y1
	VFMADD231PS Y11, Y9, Y5
	VMOVUPS     (DI)(R10*2), Y10
	VFMADD231PS Y10, Y8, Y2
	VFMADD231PS Y10, Y9, Y6
	VMOVUPS     (DI)(R12*1), Y11
	VFMADD231PS Y11, Y8, Y3
	VFMADD231PS Y11, Y9, Y7
	ADDQ        $32, SI
	ADDQ        $32, DI
	DECQ        CX
	JNZ         dloop

reduce:
	VHADDPS      Y1, Y0, Y0
	VHADDPS      Y3, Y2, Y2
	VHADDPS      Y2, Y0, Y0
	VEXTRACTF128 $1, Y0, X1
	VADDPS       X1, X0, X0
	VMOVUPS      X0, (DX)
	VHADDPS      Y5, Y4, Y4
	VHADDPS      Y7, Y6, Y6
	VHADDPS      Y6, Y4, Y4
	VEXTRACTF128 $1, Y4, X5
	VADDPS       X5, X4, X4
	VMOVUPS      X4, (DX)(R11*1)
	VZEROUPPER
	RET

// func axpy4x32(k int, a *float32, ai, ap int, b *float32, ldb int, c *float32, ldc int)
// axpy4x16 at twice the width (AVX-512): Z0–Z7 hold the 4×32 block, two 16-wide halves a row.
// Each element is the same chain of fused multiply-adds as in axpy4x16, so the bits agree.
TEXT ·axpy4x32(SB), NOSPLIT, $0-64
	MOVQ k+0(FP), CX
	MOVQ a+8(FP), SI
	MOVQ ai+16(FP), R8
	SHLQ $2, R8
	MOVQ ap+24(FP), R9
	SHLQ $2, R9
	MOVQ b+32(FP), DI
	MOVQ ldb+40(FP), R10
	SHLQ $2, R10
	MOVQ c+48(FP), DX
	MOVQ ldc+56(FP), R11
	SHLQ $2, R11
	LEAQ (R8)(R8*2), R12
	VPXORD Z0, Z0, Z0
	VPXORD Z1, Z1, Z1
	VPXORD Z2, Z2, Z2
	VPXORD Z3, Z3, Z3
	VPXORD Z4, Z4, Z4
	VPXORD Z5, Z5, Z5
	VPXORD Z6, Z6, Z6
	VPXORD Z7, Z7, Z7
	TESTQ CX, CX
	JE    store32

loop32:
	VMOVUPS      (DI), Z8
	VMOVUPS      64(DI), Z9
	VBROADCASTSS (SI), Z10
	VFMADD231PS  Z8, Z10, Z0
	VFMADD231PS  Z9, Z10, Z1
	VBROADCASTSS (SI)(R8*1), Z11
	VFMADD231PS  Z8, Z11, Z2
	VFMADD231PS  Z9, Z11, Z3
	VBROADCASTSS (SI)(R8*2), Z12
	VFMADD231PS  Z8, Z12, Z4
	VFMADD231PS  Z9, Z12, Z5
	VBROADCASTSS (SI)(R12*1), Z13
	VFMADD231PS  Z8, Z13, Z6
	VFMADD231PS  Z9, Z13, Z7
	ADDQ         R9, SI
	ADDQ         R10, DI
	DECQ         CX
	JNZ          loop32

store32:
	VMOVUPS Z0, (DX)
	VMOVUPS Z1, 64(DX)
	ADDQ    R11, DX
	VMOVUPS Z2, (DX)
	VMOVUPS Z3, 64(DX)
	ADDQ    R11, DX
	VMOVUPS Z4, (DX)
	VMOVUPS Z5, 64(DX)
	ADDQ    R11, DX
	VMOVUPS Z6, (DX)
	VMOVUPS Z7, 64(DX)
	VZEROUPPER
	RET

// func dot2x4x16(k int, a *float32, lda int, b *float32, ldb int, c *float32, ldc int)
// dot2x4 sixteen values of k a step (AVX-512; k a positive multiple of 16): Z0–Z3 accumulate
// row 0 of A against rows 0–3 of B, Z4–Z7 row 1; each is folded to 8 lanes (low half + high
// half) and then as dot2x4 folds.
TEXT ·dot2x4x16(SB), NOSPLIT, $0-56
	MOVQ k+0(FP), CX
	SHRQ $4, CX
	MOVQ a+8(FP), SI
	MOVQ lda+16(FP), R8
	SHLQ $2, R8
	MOVQ b+24(FP), DI
	MOVQ ldb+32(FP), R10
	SHLQ $2, R10
	MOVQ c+40(FP), DX
	MOVQ ldc+48(FP), R11
	SHLQ $2, R11
	LEAQ (R10)(R10*2), R12
	VPXORD Z0, Z0, Z0
	VPXORD Z1, Z1, Z1
	VPXORD Z2, Z2, Z2
	VPXORD Z3, Z3, Z3
	VPXORD Z4, Z4, Z4
	VPXORD Z5, Z5, Z5
	VPXORD Z6, Z6, Z6
	VPXORD Z7, Z7, Z7
	TESTQ CX, CX
	JE    reduce16

dloop16:
	VMOVUPS     (SI), Z8
	VMOVUPS     (SI)(R8*1), Z9
	VMOVUPS     (DI), Z10
	VFMADD231PS Z10, Z8, Z0
	VFMADD231PS Z10, Z9, Z4
	VMOVUPS     (DI)(R10*1), Z11
	VFMADD231PS Z11, Z8, Z1
	VFMADD231PS Z11, Z9, Z5
	VMOVUPS     (DI)(R10*2), Z12
	VFMADD231PS Z12, Z8, Z2
	VFMADD231PS Z12, Z9, Z6
	VMOVUPS     (DI)(R12*1), Z13
	VFMADD231PS Z13, Z8, Z3
	VFMADD231PS Z13, Z9, Z7
	ADDQ        $64, SI
	ADDQ        $64, DI
	DECQ        CX
	JNZ         dloop16

reduce16:
	VEXTRACTF64X4 $1, Z0, Y8
	VADDPS        Y8, Y0, Y0
	VEXTRACTF64X4 $1, Z1, Y9
	VADDPS        Y9, Y1, Y1
	VEXTRACTF64X4 $1, Z2, Y10
	VADDPS        Y10, Y2, Y2
	VEXTRACTF64X4 $1, Z3, Y11
	VADDPS        Y11, Y3, Y3
	VEXTRACTF64X4 $1, Z4, Y12
	VADDPS        Y12, Y4, Y4
	VEXTRACTF64X4 $1, Z5, Y13
	VADDPS        Y13, Y5, Y5
	VEXTRACTF64X4 $1, Z6, Y14
	VADDPS        Y14, Y6, Y6
	VEXTRACTF64X4 $1, Z7, Y15
	VADDPS        Y15, Y7, Y7
	VHADDPS       Y1, Y0, Y0
	VHADDPS       Y3, Y2, Y2
	VHADDPS       Y2, Y0, Y0
	VEXTRACTF128  $1, Y0, X1
	VADDPS        X1, X0, X0
	VMOVUPS       X0, (DX)
	VHADDPS       Y5, Y4, Y4
	VHADDPS       Y7, Y6, Y6
	VHADDPS       Y6, Y4, Y4
	VEXTRACTF128  $1, Y4, X5
	VADDPS        X5, X4, X4
	VMOVUPS       X4, (DX)(R11*1)
	VZEROUPPER
	RET

// func dot4x4x16(k int, a *float32, lda int, b *float32, ldb int, c *float32, ldc int)
// A 4×4 block of C = A·Bᵀ, sixteen values of k a step (AVX-512; k a positive multiple of 16):
// Z(4r+s) accumulates row r of A against row s of B. Each accumulator is folded exactly as
// dot2x4x16 folds it, so an element gets the same bits from either kernel.
TEXT ·dot4x4x16(SB), NOSPLIT, $0-56
	MOVQ k+0(FP), CX
	SHRQ $4, CX
	MOVQ a+8(FP), SI
	MOVQ lda+16(FP), R8
	SHLQ $2, R8
	MOVQ b+24(FP), DI
	MOVQ ldb+32(FP), R10
	SHLQ $2, R10
	MOVQ c+40(FP), DX
	MOVQ ldc+48(FP), R11
	SHLQ $2, R11
	LEAQ (R8)(R8*2), R9    // three rows of A
	LEAQ (R10)(R10*2), R12 // three rows of B
	VPXORD Z0, Z0, Z0
	VPXORD Z1, Z1, Z1
	VPXORD Z2, Z2, Z2
	VPXORD Z3, Z3, Z3
	VPXORD Z4, Z4, Z4
	VPXORD Z5, Z5, Z5
	VPXORD Z6, Z6, Z6
	VPXORD Z7, Z7, Z7
	VPXORD Z8, Z8, Z8
	VPXORD Z9, Z9, Z9
	VPXORD Z10, Z10, Z10
	VPXORD Z11, Z11, Z11
	VPXORD Z12, Z12, Z12
	VPXORD Z13, Z13, Z13
	VPXORD Z14, Z14, Z14
	VPXORD Z15, Z15, Z15
	TESTQ CX, CX
	JE    reduce44

dloop44:
	VMOVUPS     (SI), Z16
	VMOVUPS     (SI)(R8*1), Z17
	VMOVUPS     (SI)(R8*2), Z18
	VMOVUPS     (SI)(R9*1), Z19
	VMOVUPS     (DI), Z20
	VFMADD231PS Z20, Z16, Z0
	VFMADD231PS Z20, Z17, Z4
	VFMADD231PS Z20, Z18, Z8
	VFMADD231PS Z20, Z19, Z12
	VMOVUPS     (DI)(R10*1), Z21
	VFMADD231PS Z21, Z16, Z1
	VFMADD231PS Z21, Z17, Z5
	VFMADD231PS Z21, Z18, Z9
	VFMADD231PS Z21, Z19, Z13
	VMOVUPS     (DI)(R10*2), Z22
	VFMADD231PS Z22, Z16, Z2
	VFMADD231PS Z22, Z17, Z6
	VFMADD231PS Z22, Z18, Z10
	VFMADD231PS Z22, Z19, Z14
	VMOVUPS     (DI)(R12*1), Z23
	VFMADD231PS Z23, Z16, Z3
	VFMADD231PS Z23, Z17, Z7
	VFMADD231PS Z23, Z18, Z11
	VFMADD231PS Z23, Z19, Z15
	ADDQ        $64, SI
	ADDQ        $64, DI
	DECQ        CX
	JNZ         dloop44

reduce44:
	VEXTRACTF64X4 $1, Z0, Y16
	VEXTRACTF64X4 $1, Z1, Y17
	VEXTRACTF64X4 $1, Z2, Y18
	VEXTRACTF64X4 $1, Z3, Y19
	VADDPS        Y16, Y0, Y0
	VADDPS        Y17, Y1, Y1
	VADDPS        Y18, Y2, Y2
	VADDPS        Y19, Y3, Y3
	VHADDPS       Y1, Y0, Y0
	VHADDPS       Y3, Y2, Y2
	VHADDPS       Y2, Y0, Y0
	VEXTRACTF128  $1, Y0, X1
	VADDPS        X1, X0, X0
	VMOVUPS       X0, (DX)
	ADDQ          R11, DX
	VEXTRACTF64X4 $1, Z4, Y16
	VEXTRACTF64X4 $1, Z5, Y17
	VEXTRACTF64X4 $1, Z6, Y18
	VEXTRACTF64X4 $1, Z7, Y19
	VADDPS        Y16, Y4, Y4
	VADDPS        Y17, Y5, Y5
	VADDPS        Y18, Y6, Y6
	VADDPS        Y19, Y7, Y7
	VHADDPS       Y5, Y4, Y4
	VHADDPS       Y7, Y6, Y6
	VHADDPS       Y6, Y4, Y4
	VEXTRACTF128  $1, Y4, X5
	VADDPS        X5, X4, X4
	VMOVUPS       X4, (DX)
	ADDQ          R11, DX
	VEXTRACTF64X4 $1, Z8, Y16
	VEXTRACTF64X4 $1, Z9, Y17
	VEXTRACTF64X4 $1, Z10, Y18
	VEXTRACTF64X4 $1, Z11, Y19
	VADDPS        Y16, Y8, Y8
	VADDPS        Y17, Y9, Y9
	VADDPS        Y18, Y10, Y10
	VADDPS        Y19, Y11, Y11
	VHADDPS       Y9, Y8, Y8
	VHADDPS       Y11, Y10, Y10
	VHADDPS       Y10, Y8, Y8
	VEXTRACTF128  $1, Y8, X9
	VADDPS        X9, X8, X8
	VMOVUPS       X8, (DX)
	ADDQ          R11, DX
	VEXTRACTF64X4 $1, Z12, Y16
	VEXTRACTF64X4 $1, Z13, Y17
	VEXTRACTF64X4 $1, Z14, Y18
	VEXTRACTF64X4 $1, Z15, Y19
	VADDPS        Y16, Y12, Y12
	VADDPS        Y17, Y13, Y13
	VADDPS        Y18, Y14, Y14
	VADDPS        Y19, Y15, Y15
	VHADDPS       Y13, Y12, Y12
	VHADDPS       Y15, Y14, Y14
	VHADDPS       Y14, Y12, Y12
	VEXTRACTF128  $1, Y12, X13
	VADDPS        X13, X12, X12
	VMOVUPS       X12, (DX)
	VZEROUPPER
	RET
