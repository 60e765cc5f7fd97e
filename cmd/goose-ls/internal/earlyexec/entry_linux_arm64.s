// goose-ls's ELF entry point on linux/arm64 when linked with -ldflags=-E=goose_ls_entry: the same decision
// and exec as entry_linux_amd64.s (read that file first), in arm64's registers and system calls.

#include "textflag.h"

#define SYS_readlinkat 78
#define SYS_execve 221
#define BUF 8192    // bytes below the stack pointer for the path (inside the stack's first mapping)
#define PATHMAX 4096

// goose_ls_entry runs with the kernel's stack: argc at 0(RSP), argv from 8(RSP), then envp.
TEXT goose_ls_entry(SB),NOSPLIT|NOFRAME,$0
	MOVD	RSP, R19         // R19: the kernel's stack, kept for the runtime
	MOVD	0(R19), R20      // R20: argc
	ADD	$8, R19, R22     // R22: argv
	CMP	$2, R20
	BLT	runtime

	MOVD	8(R22), R0
	MOVD	$cmdacp<>(SB), R1
	BL	streq<>(SB)
	CBNZ	R0, agent
	MOVD	8(R22), R0
	MOVD	$cmdsessions<>(SB), R1
	BL	streq<>(SB)
	CBNZ	R0, agent
	MOVD	8(R22), R0
	MOVD	$cmdrun<>(SB), R1
	BL	streq<>(SB)
	CBZ	R0, runtime

	// run: goose-ls answers --explain and --render-recipe itself (any dashes, any suffix, as IsAgentCommand)
	MOVD	$2, R21          // R21: the argument index
args:
	CMP	R20, R21
	BGE	agent
	MOVD	(R22)(R21<<3), R23
	ADD	$1, R21
	MOVBU	(R23), R2
	CMP	$'-', R2
	BNE	args
dashes:
	ADD	$1, R23
	MOVBU	(R23), R2
	CMP	$'-', R2
	BEQ	dashes
	MOVD	R23, R0
	MOVD	$flagexplain<>(SB), R1
	BL	hasprefix<>(SB)
	CBNZ	R0, runtime
	MOVD	R23, R0
	MOVD	$flagrender<>(SB), R1
	BL	hasprefix<>(SB)
	CBNZ	R0, runtime
	JMP	args

agent:
	SUB	$BUF, R19, R24   // R24: the path's buffer, below the stack pointer (nothing is called from here on)
	MOVD	$SYS_readlinkat, R8
	MOVD	$-100, R0        // AT_FDCWD
	MOVD	$procexe<>(SB), R1
	MOVD	R24, R2
	MOVD	$PATHMAX, R3
	SVC
	CMP	$0, R0
	BLE	runtime
	CMP	$(PATHMAX-16), R0
	BGE	runtime
	ADD	R24, R0, R4      // R4: the link's end
slash:
	CMP	R24, R4
	BEQ	runtime          // no folder: not an absolute path
	SUB	$1, R4
	MOVBU	(R4), R2
	CMP	$'/', R2
	BNE	slash
	ADD	$1, R4           // the executable's name, replaced by the agent's (with its NUL)
	MOVD	$agentname<>(SB), R5
	MOVD	0(R5), R6
	MOVD	R6, 0(R4)
	MOVD	8(R5), R6
	MOVD	R6, 8(R4)
	MOVD	0(R22), R25      // argv[0], put back if exec fails
	MOVD	R24, 0(R22)      // the agent's argv[0] is its path, as syscall.Exec in early_linux.go
	MOVD	$SYS_execve, R8
	MOVD	R24, R0
	MOVD	R22, R1
	ADD	$1, R20, R2
	LSL	$3, R2
	ADD	R22, R2          // envp: after argv's NULL
	SVC
	MOVD	R25, 0(R22)
runtime:
	JMP	_rt0_arm64_linux(SB)

// streq: R0 = 1 when the NUL-terminated strings at R0 and R1 are equal, else 0 (clobbers R1–R3).
TEXT streq<>(SB),NOSPLIT|NOFRAME,$0
loop:
	MOVBU	(R0), R2
	MOVBU	(R1), R3
	CMP	R2, R3
	BNE	differ
	CBZ	R2, same
	ADD	$1, R0
	ADD	$1, R1
	JMP	loop
same:
	MOVD	$1, R0
	RET
differ:
	MOVD	$0, R0
	RET

// hasprefix: R0 = 1 when the string at R0 starts with the NUL-terminated prefix at R1, else 0
// (clobbers R1–R3).
TEXT hasprefix<>(SB),NOSPLIT|NOFRAME,$0
loop:
	MOVBU	(R1), R3
	CBZ	R3, yes
	MOVBU	(R0), R2
	CMP	R2, R3
	BNE	no
	ADD	$1, R0
	ADD	$1, R1
	JMP	loop
yes:
	MOVD	$1, R0
	RET
no:
	MOVD	$0, R0
	RET

#include "entry_strings.h"
