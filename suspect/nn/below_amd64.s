#include "textflag.h"

// func belowAVX2(n int, dots, norms *float32, lim float32, mask *uint8) bool
// Eight values a step: Y1 = norms − (dots + dots), compared ≤ lim (ordered, so NaN is false),
// its sign bits stored as one byte of mask; R8 gathers every byte stored.
TEXT ·belowAVX2(SB), NOSPLIT, $0-41
	MOVQ         n+0(FP), CX
	SHRQ         $3, CX
	MOVQ         dots+8(FP), SI
	MOVQ         norms+16(FP), DI
	VBROADCASTSS lim+24(FP), Y2
	MOVQ         mask+32(FP), DX
	XORQ         R8, R8
	TESTQ        CX, CX
	JE           done

loop:
	VMOVUPS   (SI), Y0
	VADDPS    Y0, Y0, Y0
	VMOVUPS   (DI), Y1
	VSUBPS    Y0, Y1, Y1
	VCMPPS    $2, Y2, Y1, Y1
	VMOVMSKPS Y1, AX
	MOVB      AX, (DX)
	ORQ       AX, R8
	ADDQ      $32, SI
	ADDQ      $32, DI
	INCQ      DX
	DECQ      CX
	JNZ       loop
	VZEROUPPER

done:
	TESTQ R8, R8
	SETNE ret+40(FP)
	RET
