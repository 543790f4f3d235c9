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
