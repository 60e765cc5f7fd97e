// The strings goose-ls's ELF entries compare and build with (entry_linux_*.s), NUL-terminated and
// padded to 8 bytes.

DATA cmdrun<>+0(SB)/8, $"run\x00\x00\x00\x00\x00"
GLOBL cmdrun<>(SB), RODATA, $8
DATA cmdacp<>+0(SB)/8, $"acp\x00\x00\x00\x00\x00"
GLOBL cmdacp<>(SB), RODATA, $8
DATA cmdsessions<>+0(SB)/8, $"sessions"
DATA cmdsessions<>+8(SB)/8, $"\x00\x00\x00\x00\x00\x00\x00\x00"
GLOBL cmdsessions<>(SB), RODATA, $16
DATA flagexplain<>+0(SB)/8, $"explain\x00"
GLOBL flagexplain<>(SB), RODATA, $8
DATA flagrender<>+0(SB)/8, $"render-r"
DATA flagrender<>+8(SB)/8, $"ecipe\x00\x00\x00"
GLOBL flagrender<>(SB), RODATA, $16
DATA procexe<>+0(SB)/8, $"/proc/se"
DATA procexe<>+8(SB)/8, $"lf/exe\x00\x00"
GLOBL procexe<>(SB), RODATA, $16
DATA agentname<>+0(SB)/8, $"goose-ls"
DATA agentname<>+8(SB)/8, $"-agent\x00\x00"
GLOBL agentname<>(SB), RODATA, $16
