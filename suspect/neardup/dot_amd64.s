#include "textflag.h"

// func dotAVX2(n int, a, b *byte) uint32
// Sixteen bytes a step, widened to 16-bit words and multiplied in pairs into eight 32-bit sums
// (VPMADDWD); the sums are added across, then the last n mod 16 bytes one at a time.
TEXT ·dotAVX2(SB), NOSPLIT, $0-28
	MOVQ  n+0(FP), CX
	MOVQ  a+8(FP), SI
	MOVQ  b+16(FP), DI
	VPXOR Y0, Y0, Y0

loop:
	CMPQ      CX, $16
	JL        sum
	VPMOVZXBW (SI), Y1
	VPMOVZXBW (DI), Y2
	VPMADDWD  Y2, Y1, Y1
	VPADDD    Y1, Y0, Y0
	ADDQ      $16, SI
	ADDQ      $16, DI
	SUBQ      $16, CX
	JMP       loop

sum:
	VEXTRACTI128 $1, Y0, X1
	VPADDD       X1, X0, X0
	VPSHUFD      $0x4e, X0, X1
	VPADDD       X1, X0, X0
	VPSHUFD      $0xb1, X0, X1
	VPADDD       X1, X0, X0
	VMOVD        X0, AX
	VZEROUPPER

tail:
	TESTQ   CX, CX
	JE      done
	MOVBLZX (SI), R8
	MOVBLZX (DI), R9
	IMULL   R9, R8
	ADDL    R8, AX
	INCQ    SI
	INCQ    DI
	DECQ    CX
	JMP     tail

done:
	MOVL AX, ret+24(FP)
	RET
