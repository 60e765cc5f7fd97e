// goose-ls's ELF entry point when linked with -ldflags=-E=goose_ls_entry (the Makefile and the release
// scripts do): for `run`, `acp` and `sessions` it execs goose-ls-agent beside the executable before the Go
// runtime starts, the decision IsAgentCommand makes, so the hop to the agent costs an exec and not a
// Go process start (~10 ms of page faults on a virtual machine). Anything else, and any failure,
// continues into the runtime's own entry with the stack as the kernel left it; the initialiser in
// early_linux.go and then main take over from there.

#include "textflag.h"

#define SYS_execve 59
#define SYS_readlinkat 267
#define AT_FDCWD $-100
#define BUF 4352    // bytes below the stack pointer for the path: PATH_MAX and room for the agent's name
#define PATHMAX 4096

// goose_ls_entry runs with the kernel's stack: argc at 0(SP), argv from 8(SP), then envp.
TEXT goose_ls_entry(SB),NOSPLIT|NOFRAME,$0
	MOVQ	SP, R12          // R12: the kernel's stack, kept for the runtime
	MOVQ	0(R12), R13      // R13: argc
	CMPQ	R13, $2
	JLT	runtime

	MOVQ	16(R12), SI
	LEAQ	cmdacp<>(SB), DI
	CALL	streq<>(SB)
	TESTQ	AX, AX
	JNE	agent
	MOVQ	16(R12), SI
	LEAQ	cmdsessions<>(SB), DI
	CALL	streq<>(SB)
	TESTQ	AX, AX
	JNE	agent
	MOVQ	16(R12), SI
	LEAQ	cmdrun<>(SB), DI
	CALL	streq<>(SB)
	TESTQ	AX, AX
	JEQ	runtime

	// run: goose-ls answers --explain and --render-recipe itself (any dashes, any suffix, as IsAgentCommand)
	MOVQ	$2, R14          // R14: the argument index
args:
	CMPQ	R14, R13
	JGE	agent
	MOVQ	8(R12)(R14*8), SI
	INCQ	R14
	CMPB	(SI), $'-'
	JNE	args
dashes:
	INCQ	SI
	CMPB	(SI), $'-'
	JEQ	dashes
	MOVQ	SI, R15
	LEAQ	flagexplain<>(SB), DI
	CALL	hasprefix<>(SB)
	TESTQ	AX, AX
	JNE	runtime
	MOVQ	R15, SI
	LEAQ	flagrender<>(SB), DI
	CALL	hasprefix<>(SB)
	TESTQ	AX, AX
	JNE	runtime
	JMP	args

agent:
	LEAQ	-BUF(R12), R9    // R9: the path's buffer, below the stack pointer (nothing is called from here on)
	MOVQ	$SYS_readlinkat, AX
	MOVQ	AT_FDCWD, DI
	LEAQ	procexe<>(SB), SI
	MOVQ	R9, DX
	MOVQ	$PATHMAX, R10
	SYSCALL
	CMPQ	AX, $0
	JLE	runtime
	CMPQ	AX, $(PATHMAX-16)
	JGE	runtime
	MOVQ	R9, BX
	ADDQ	AX, BX           // BX: the link's end
slash:
	CMPQ	BX, R9
	JEQ	runtime          // no folder: not an absolute path
	DECQ	BX
	CMPB	(BX), $'/'
	JNE	slash
	INCQ	BX               // the executable's name, replaced by the agent's (with its NUL)
	LEAQ	agentname<>(SB), SI
	MOVQ	0(SI), AX
	MOVQ	AX, 0(BX)
	MOVQ	8(SI), AX
	MOVQ	AX, 8(BX)
	MOVQ	8(R12), R15      // argv[0], put back if exec fails
	MOVQ	R9, 8(R12)       // the agent's argv[0] is its path, as syscall.Exec in early_linux.go
	MOVQ	$SYS_execve, AX
	MOVQ	R9, DI
	LEAQ	8(R12), SI
	LEAQ	16(R12)(R13*8), DX // envp: after argv's NULL
	SYSCALL
	MOVQ	R15, 8(R12)
runtime:
	JMP	_rt0_amd64_linux(SB)

// streq: AX = 1 when the NUL-terminated strings at SI and DI are equal, else 0 (clobbers BX, SI, DI).
TEXT streq<>(SB),NOSPLIT|NOFRAME,$0
loop:
	MOVBLZX	(SI), AX
	MOVBLZX	(DI), BX
	CMPL	AX, BX
	JNE	differ
	TESTL	AX, AX
	JEQ	same
	INCQ	SI
	INCQ	DI
	JMP	loop
same:
	MOVQ	$1, AX
	RET
differ:
	XORQ	AX, AX
	RET

// hasprefix: AX = 1 when the string at SI starts with the NUL-terminated prefix at DI, else 0
// (clobbers BX, SI, DI).
TEXT hasprefix<>(SB),NOSPLIT|NOFRAME,$0
loop:
	MOVBLZX	(DI), BX
	TESTL	BX, BX
	JEQ	yes
	MOVBLZX	(SI), AX
	CMPL	AX, BX
	JNE	no
	INCQ	SI
	INCQ	DI
	JMP	loop
yes:
	MOVQ	$1, AX
	RET
no:
	XORQ	AX, AX
	RET

#include "entry_strings.h"
