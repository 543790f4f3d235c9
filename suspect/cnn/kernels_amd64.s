#include "textflag.h"

// func poolReLUAVX2(z *float32, p int, bias float32, a *float32, arg *int32)
// Eight positions a step: Y0 the running maximum, Y3 its plane; each later plane replaces them
// where it is strictly greater (the first wins ties); then bias and ReLU.
TEXT ·poolReLUAVX2(SB), NOSPLIT, $0-40
	MOVQ         z+0(FP), SI
	MOVQ         p+8(FP), CX
	VBROADCASTSS bias+16(FP), Y8
	MOVQ         a+24(FP), DI
	MOVQ         arg+32(FP), DX
	MOVQ         CX, R8
	SHLQ         $2, R8          // plane stride, bytes
	LEAQ         (R8)(R8*2), R9  // three planes
	VXORPS       Y9, Y9, Y9
	MOVL         $1, AX
	VMOVD        AX, X10
	VPBROADCASTD X10, Y10
	MOVL         $2, AX
	VMOVD        AX, X11
	VPBROADCASTD X11, Y11
	MOVL         $3, AX
	VMOVD        AX, X12
	VPBROADCASTD X12, Y12
	SHRQ         $3, CX

ploop:
	VMOVUPS   (SI), Y0
	VXORPS    Y3, Y3, Y3
	VMOVUPS   (SI)(R8*1), Y1
	VCMPPS    $0x1e, Y0, Y1, Y2  // Y2 = Y1 > Y0
	VBLENDVPS Y2, Y1, Y0, Y0
	VBLENDVPS Y2, Y10, Y3, Y3
	VMOVUPS   (SI)(R8*2), Y1
	VCMPPS    $0x1e, Y0, Y1, Y2
	VBLENDVPS Y2, Y1, Y0, Y0
	VBLENDVPS Y2, Y11, Y3, Y3
	VMOVUPS   (SI)(R9*1), Y1
	VCMPPS    $0x1e, Y0, Y1, Y2
	VBLENDVPS Y2, Y1, Y0, Y0
	VBLENDVPS Y2, Y12, Y3, Y3
	VADDPS    Y8, Y0, Y0
	VMAXPS    Y9, Y0, Y0
	VMOVUPS   Y0, (DI)
	VMOVDQU   Y3, (DX)
	ADDQ      $32, SI
	ADDQ      $32, DI
	ADDQ      $32, DX
	DECQ      CX
	JNZ       ploop
	VZEROUPPER
	RET

// func unpoolReLUAVX2(da, a *float32, arg *int32, dz *float32, p int) float32
// Eight positions a step: v = da where a > 0, else 0; plane q gets v where arg = q. Y7 keeps
// eight partial sums of v, folded at the end as sum8 does.
TEXT ·unpoolReLUAVX2(SB), NOSPLIT, $0-44
	MOVQ         da+0(FP), SI
	MOVQ         a+8(FP), BX
	MOVQ         arg+16(FP), DX
	MOVQ         dz+24(FP), DI
	MOVQ         p+32(FP), CX
	MOVQ         CX, R8
	SHLQ         $2, R8
	LEAQ         (R8)(R8*2), R9
	VXORPS       Y9, Y9, Y9
	VXORPS       Y7, Y7, Y7
	MOVL         $1, AX
	VMOVD        AX, X10
	VPBROADCASTD X10, Y10
	MOVL         $2, AX
	VMOVD        AX, X11
	VPBROADCASTD X11, Y11
	MOVL         $3, AX
	VMOVD        AX, X12
	VPBROADCASTD X12, Y12
	SHRQ         $3, CX

uloop:
	VMOVUPS  (SI), Y0
	VMOVUPS  (BX), Y1
	VCMPPS   $0x1e, Y9, Y1, Y2   // a > 0
	VANDPS   Y2, Y0, Y0
	VADDPS   Y0, Y7, Y7
	VMOVDQU  (DX), Y3
	VPCMPEQD Y9, Y3, Y4
	VANDPS   Y4, Y0, Y5
	VMOVUPS  Y5, (DI)
	VPCMPEQD Y10, Y3, Y4
	VANDPS   Y4, Y0, Y5
	VMOVUPS  Y5, (DI)(R8*1)
	VPCMPEQD Y11, Y3, Y4
	VANDPS   Y4, Y0, Y5
	VMOVUPS  Y5, (DI)(R8*2)
	VPCMPEQD Y12, Y3, Y4
	VANDPS   Y4, Y0, Y5
	VMOVUPS  Y5, (DI)(R9*1)
	ADDQ     $32, SI
	ADDQ     $32, BX
	ADDQ     $32, DX
	ADDQ     $32, DI
	DECQ     CX
	JNZ      uloop
	VEXTRACTF128 $1, Y7, X0
	VADDPS   X0, X7, X0          // lanes i and i+4
	VHADDPS  X0, X0, X0          // (0+1), (2+3)
	VHADDPS  X0, X0, X0          // (0+1)+(2+3)
	VMOVSS   X0, ret+40(FP)
	VZEROUPPER
	RET

// func im2colRunsAVX2(dst, src *float32, b int)
// A sample a step: four runs of four values, read 24 values (96 bytes) apart.
TEXT ·im2colRunsAVX2(SB), NOSPLIT, $0-24
	MOVQ dst+0(FP), DI
	MOVQ src+8(FP), SI
	MOVQ b+16(FP), CX

iloop:
	VMOVUPS (SI), X0
	VMOVUPS 96(SI), X1
	VMOVUPS 192(SI), X2
	VMOVUPS 288(SI), X3
	VMOVUPS X0, (DI)
	VMOVUPS X1, 16(DI)
	VMOVUPS X2, 32(DI)
	VMOVUPS X3, 48(DI)
	ADDQ    $576, SI            // l1 = 144 values
	ADDQ    $64, DI
	DECQ    CX
	JNZ     iloop
	RET

// func col2imRunsAVX2(dst, src *float32, b int)
TEXT ·col2imRunsAVX2(SB), NOSPLIT, $0-24
	MOVQ dst+0(FP), DI
	MOVQ src+8(FP), SI
	MOVQ b+16(FP), CX

cloop:
	VMOVUPS (SI), X0
	VADDPS  (DI), X0, X0
	VMOVUPS X0, (DI)
	VMOVUPS 16(SI), X1
	VADDPS  96(DI), X1, X1
	VMOVUPS X1, 96(DI)
	VMOVUPS 32(SI), X2
	VADDPS  192(DI), X2, X2
	VMOVUPS X2, 192(DI)
	VMOVUPS 48(SI), X3
	VADDPS  288(DI), X3, X3
	VMOVUPS X3, 288(DI)
	ADDQ    $64, SI
	ADDQ    $576, DI
	DECQ    CX
	JNZ     cloop
	RET

// func im2colRuns6AVX2(dst, src *float32, b int)
// A sample a step, twelve runs of six values (16 bytes and 8), read 56 values (224 bytes) apart
// and written 12 apart (48 bytes).
TEXT ·im2colRuns6AVX2(SB), NOSPLIT, $0-24
	MOVQ dst+0(FP), DI
	MOVQ src+8(FP), SI
	MOVQ b+16(FP), CX

sloop:
	MOVQ $12, DX
	MOVQ SI, R8
	MOVQ DI, R9

yloop:
	VMOVUPS (R8), X0
	MOVQ    16(R8), AX
	VMOVUPS X0, (R9)
	MOVQ    AX, 16(R9)
	ADDQ    $224, R8
	ADDQ    $48, R9
	DECQ    DX
	JNZ     yloop
	ADDQ    $3136, SI           // a sample: 784 values
	ADDQ    $576, DI            // 144 values
	DECQ    CX
	JNZ     sloop
	RET

// func addAVX2(dst, src *float32, n int)
TEXT ·addAVX2(SB), NOSPLIT, $0-24
	MOVQ dst+0(FP), DI
	MOVQ src+8(FP), SI
	MOVQ n+16(FP), CX
	SHRQ $3, CX

aloop:
	VMOVUPS (SI), Y0
	VADDPS  (DI), Y0, Y0
	VMOVUPS Y0, (DI)
	ADDQ    $32, SI
	ADDQ    $32, DI
	DECQ    CX
	JNZ     aloop
	VZEROUPPER
	RET

// func adamAVX2(p, g0, g1, m, v *float32, n int, c *adamConsts)
// Y8–Y14 hold the constants b1, c1, b2, c2, step, sqrtBC2, eps; eight parameters a step.
TEXT ·adamAVX2(SB), NOSPLIT, $0-56
	MOVQ         p+0(FP), DI
	MOVQ         g0+8(FP), SI
	MOVQ         g1+16(FP), BX
	MOVQ         m+24(FP), R8
	MOVQ         v+32(FP), R9
	MOVQ         n+40(FP), CX
	MOVQ         c+48(FP), AX
	VBROADCASTSS 0(AX), Y8
	VBROADCASTSS 4(AX), Y9
	VBROADCASTSS 8(AX), Y10
	VBROADCASTSS 12(AX), Y11
	VBROADCASTSS 16(AX), Y12
	VBROADCASTSS 20(AX), Y13
	VBROADCASTSS 24(AX), Y14
	SHRQ         $3, CX

dloop:
	VMOVUPS (SI), Y0
	VADDPS  (BX), Y0, Y0    // g
	VMULPS  (R8), Y8, Y1    // b1·m
	VMULPS  Y0, Y9, Y2      // c1·g
	VADDPS  Y2, Y1, Y1      // m
	VMOVUPS Y1, (R8)
	VMULPS  (R9), Y10, Y3   // b2·v
	VMULPS  Y0, Y11, Y4     // c2·g
	VMULPS  Y0, Y4, Y4      // c2·g·g
	VADDPS  Y4, Y3, Y3      // v
	VMOVUPS Y3, (R9)
	VSQRTPS Y3, Y3
	VDIVPS  Y13, Y3, Y3     // √v/√(1−β2^t)
	VADDPS  Y14, Y3, Y3     // + ε
	VMULPS  Y1, Y12, Y1     // step·m
	VDIVPS  Y3, Y1, Y1
	VMOVUPS (DI), Y5
	VSUBPS  Y1, Y5, Y5
	VMOVUPS Y5, (DI)
	ADDQ    $32, DI
	ADDQ    $32, SI
	ADDQ    $32, BX
	ADDQ    $32, R8
	ADDQ    $32, R9
	DECQ    CX
	JNZ     dloop
	VZEROUPPER
	RET

// func warpAVX2(dst *float32, src *byte, pad *float32, coef *[4]float32, xs, ys *[784]float32)
TEXT ·warpAVX2(SB), NOSPLIT, $0-48
	MOVQ         dst+0(FP), DI
	MOVQ         src+8(FP), SI
	MOVQ         pad+16(FP), DX
	MOVQ         coef+24(FP), AX
	MOVL         $0x3b808081, BX  // 1/255
	VMOVD        BX, X15
	VBROADCASTSS X15, Y15
	LEAQ         132(DX), R8      // pad row 1, column 1
	MOVQ         $28, CX

fill:
	VPMOVZXBD (SI), Y0
	VCVTDQ2PS Y0, Y0
	VMULPS    Y15, Y0, Y0
	VMOVUPS   Y0, (R8)
	VPMOVZXBD 8(SI), Y0
	VCVTDQ2PS Y0, Y0
	VMULPS    Y15, Y0, Y0
	VMOVUPS   Y0, 32(R8)
	VPMOVZXBD 16(SI), Y0
	VCVTDQ2PS Y0, Y0
	VMULPS    Y15, Y0, Y0
	VMOVUPS   Y0, 64(R8)
	VPMOVZXBD 24(SI), X0
	VCVTDQ2PS X0, X0
	VMULPS    X15, X0, X0
	VMOVUPS   X0, 96(R8)
	ADDQ      $28, SI
	ADDQ      $128, R8
	DECQ      CX
	JNZ       fill

	VBROADCASTSS 0(AX), Y8        // A
	VBROADCASTSS 4(AX), Y9        // B
	VBROADCASTSS 8(AX), Y10       // C1
	VBROADCASTSS 12(AX), Y11      // D1
	MOVL         $0x41f80000, BX  // 31.0
	VMOVD        BX, X12
	VBROADCASTSS X12, Y12
	MOVL         $31, BX
	VMOVD        BX, X13
	VPBROADCASTD X13, Y13
	MOVL         $28, BX
	VMOVD        BX, X14
	VPBROADCASTD X14, Y14
	MOVQ         xs+32(FP), R9
	MOVQ         ys+40(FP), R10
	MOVQ         $98, CX          // 784 pixels, eight a step

pixels:
	VMOVUPS      (R9), Y0
	VMOVUPS      (R10), Y1
	VMOVAPS      Y10, Y2
	VFMADD231PS  Y0, Y8, Y2       // sx+1 = C1 + A·X + B·Y
	VFMADD231PS  Y1, Y9, Y2
	VMOVAPS      Y11, Y3
	VFNMADD231PS Y0, Y9, Y3       // sy+1 = D1 − B·X + A·Y
	VFMADD231PS  Y1, Y8, Y3
	VADDPS       Y12, Y2, Y4
	VCVTTPS2DQ   Y4, Y4
	VPSUBD       Y13, Y4, Y4      // u = ⌊sx⌋ + 1, the tap's pad column
	VADDPS       Y12, Y3, Y5
	VCVTTPS2DQ   Y5, Y5
	VPSUBD       Y13, Y5, Y5      // w = ⌊sy⌋ + 1, its pad row
	VCVTDQ2PS    Y4, Y6
	VSUBPS       Y6, Y2, Y6       // fx
	VCVTDQ2PS    Y5, Y7
	VSUBPS       Y7, Y3, Y7       // fy
	VPMINUD      Y14, Y4, Y0
	VPCMPEQD     Y0, Y4, Y0       // u ≤ 28 (unsigned: not negative)
	VPMINUD      Y14, Y5, Y1
	VPCMPEQD     Y1, Y5, Y1
	VPAND        Y1, Y0, Y0       // every tap inside pad
	VPSLLD       $5, Y5, Y5
	VPADDD       Y4, Y5, Y5
	VPAND        Y0, Y5, Y5       // tap index, 0 where outside
	VPCMPEQD     Y1, Y1, Y1
	VXORPS       Y2, Y2, Y2
	VGATHERDPS   Y1, (DX)(Y5*4), Y2
	VPCMPEQD     Y1, Y1, Y1
	VXORPS       Y3, Y3, Y3
	VGATHERDPS   Y1, 4(DX)(Y5*4), Y3
	VPCMPEQD     Y1, Y1, Y1
	VXORPS       Y4, Y4, Y4
	VGATHERDPS   Y1, 128(DX)(Y5*4), Y4
	VPCMPEQD     Y1, Y1, Y1
	VXORPS       Y15, Y15, Y15
	VGATHERDPS   Y1, 132(DX)(Y5*4), Y15
	VSUBPS       Y2, Y3, Y3
	VFMADD231PS  Y3, Y6, Y2       // top = p00 + fx·(p01 − p00)
	VSUBPS       Y4, Y15, Y15
	VFMADD231PS  Y15, Y6, Y4      // bottom = p10 + fx·(p11 − p10)
	VSUBPS       Y2, Y4, Y4
	VFMADD231PS  Y4, Y7, Y2       // top + fy·(bottom − top)
	VANDPS       Y0, Y2, Y2
	VMOVUPS      Y2, (DI)
	ADDQ         $32, DI
	ADDQ         $32, R9
	ADDQ         $32, R10
	DECQ         CX
	JNZ          pixels
	VZEROUPPER
	RET
