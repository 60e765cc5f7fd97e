// Floats printed as minijinja prints them: Rust's Display alone, Rust's Debug inside lists, maps and pprint.

package template

import (
	"math"
	"strconv"
	"strings"
)

func formatFloat(f float64) string {
	if math.IsInf(f, 1) {
		return "inf"
	}
	if math.IsInf(f, -1) {
		return "-inf"
	}
	if math.IsNaN(f) {
		return "NaN"
	}
	// Rust's Display: the shortest digits that read back, never an exponent, at least one decimal
	s := strconv.FormatFloat(f, 'f', -1, 64)
	if !strings.Contains(s, ".") {
		s += ".0"
	}
	return s
}

// formatFloatDebug is Rust's `{:?}` of a float (how minijinja prints one inside a list or map, and
// pprint): as Display between 1e-4 and 1e16, else the shortest digits with an exponent (`1e20`, `1e-7`).
func formatFloatDebug(f float64) string {
	if a := math.Abs(f); a == 0 || a >= 1e-4 && a < 1e16 || math.IsInf(f, 0) || math.IsNaN(f) {
		return formatFloat(f)
	}
	s := strconv.FormatFloat(f, 'e', -1, 64) // 1e+20, 1.5e-07
	mant, exp, _ := strings.Cut(s, "e")
	sign := ""
	if exp[0] == '-' {
		sign = "-"
	}
	return mant + "e" + sign + strings.TrimLeft(exp[1:], "0")
}
