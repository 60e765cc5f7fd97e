// Comparing numbers as minijinja 2.24 does: integers exactly, an integer and a float through the float
// only when the integer survives the round trip, otherwise exactly; floats equal when `==`, else in
// Rust's total order (NaN past infinity).

package template

import (
	"math"
	"math/big"
)

// compareNumbers orders two numbers (ints, wide ints, floats; not bools, which order as their own kind).
func compareNumbers(a, b Value) int {
	switch {
	case a.kind == KindFloat && b.kind == KindFloat:
		return cmpF64(a.f, b.f)
	case a.kind == KindFloat:
		return cmpFloatInt(a.f, b)
	case b.kind == KindFloat:
		return -cmpFloatInt(b.f, a)
	case a.wide == nil && b.wide == nil:
		return cmpInt64(a.i, b.i)
	}
	return a.bigOf().Cmp(b.bigOf())
}

// equalNumbers is minijinja's equality of two numbers or bools: an integer and a float are equal only
// when the integer converts to the float without loss (minijinja's coerce without lossy conversion).
func equalNumbers(a, b Value) bool {
	switch {
	case a.kind == KindFloat && b.kind == KindFloat:
		return a.f == b.f
	case a.kind == KindFloat:
		f, ok := losslessFloat(b)
		return ok && f == a.f
	case b.kind == KindFloat:
		f, ok := losslessFloat(a)
		return ok && f == b.f
	case a.wide == nil && b.wide == nil:
		return a.asInt() == b.asInt()
	}
	return a.bigOf().Cmp(b.bigOf()) == 0
}

// cmpF64 is minijinja's float order: equal when `==` (so -0.0 and 0.0 are equal), otherwise Rust's
// total_cmp, which puts a NaN past infinity (a negative one below minus infinity).
func cmpF64(x, y float64) int {
	if x == y {
		return 0
	}
	return cmpInt64(totalOrderKey(x), totalOrderKey(y))
}

func totalOrderKey(f float64) int64 {
	k := int64(math.Float64bits(f))
	return k ^ int64(uint64(k>>63)>>1)
}

func cmpInt64(x, y int64) int {
	switch {
	case x < y:
		return -1
	case x > y:
		return 1
	}
	return 0
}

// cmpFloatInt orders a float against an integer (or bool): through the float when the integer converts
// without loss, exactly otherwise (minijinja's fallback for numbers with no common representation).
func cmpFloatInt(f float64, n Value) int {
	if g, ok := losslessFloat(n); ok {
		return cmpF64(f, g)
	}
	if math.IsNaN(f) || math.IsInf(f, 0) {
		return cmpF64(f, 0)
	}
	return new(big.Float).SetFloat64(f).Cmp(new(big.Float).SetInt(n.bigOf()))
}

var (
	two63   = math.Ldexp(1, 63)
	two64   = math.Ldexp(1, 64)
	two127  = math.Ldexp(1, 127)
	two128  = math.Ldexp(1, 128)
	u64Max  = new(big.Int).SetUint64(math.MaxUint64)
	u128Max = new(big.Int).Sub(new(big.Int).Lsh(big.NewInt(1), 128), big.NewInt(1))
)

// losslessFloat is minijinja's as_f64 without lossy conversion: the integer as a float when Rust's
// saturating cast back gives the same integer. The saturation point depends on how minijinja holds the
// integer, which goose-ls does not track: a non-negative one is taken as a literal is held (u64, u128
// past 64 bits), a negative one as arithmetic leaves it (i64, i128). Only the largest value of each
// type can answer differently (9223372036854775807 computed rather than written, say).
func losslessFloat(n Value) (float64, bool) {
	if n.kind == KindBool {
		return float64(boolRank(n.b)), true
	}
	if n.wide == nil {
		f := float64(n.i)
		if n.i >= 0 {
			return f, f < two63 && int64(f) == n.i // as u64: 2^63 and up is past any int64
		}
		return f, int64(f) == n.i // at least -2^63: no saturation
	}
	f, _ := new(big.Float).SetInt(n.wide).Float64()
	var limit float64 // the cast back saturates at or past this float
	var max *big.Int
	switch {
	case n.wide.Sign() > 0 && n.wide.Cmp(u64Max) <= 0:
		limit, max = two64, u64Max
	case n.wide.Sign() > 0:
		limit, max = two128, u128Max
	default:
		limit, max = two127, i128Max
	}
	var back *big.Int
	if f >= limit {
		back = max
	} else if f <= -two127 {
		back = i128Min
	} else {
		back, _ = new(big.Float).SetFloat64(f).Int(nil)
	}
	return f, back.Cmp(n.wide) == 0
}
