// A word-at-a-time skip over printable ASCII, for the passes that look for the rare byte libyaml's
// reader refuses (the control-character scan read a 100 KB recipe byte by byte on every keystroke).

package yamltree

import "encoding/binary"

const (
	onesPerByte = 0x0101010101010101
	highBits    = 0x8080808080808080
)

// skipPlainASCII returns the first offset from i whose 8-byte word holds a byte that is not printable
// ASCII (below 0x20, 0x7f, or 0x80 and above); the caller looks at the bytes from there one by one.
func skipPlainASCII(text []byte, i int) int {
	for i+8 <= len(text) {
		x := binary.LittleEndian.Uint64(text[i:])
		del := x ^ (0x7f * onesPerByte)
		// a high bit, a byte below 0x20 (the subtraction borrows into its high bit) or a 0x7f byte (zero
		// after the xor); borrows can flag a word that holds none, never miss one
		if x&highBits != 0 || (x-0x20*onesPerByte)&highBits != 0 || (del-onesPerByte)&^del&highBits != 0 {
			return i
		}
		i += 8
	}
	return i
}
