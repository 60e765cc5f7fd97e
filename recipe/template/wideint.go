// Integers past 64 bits: minijinja computes integer arithmetic in i128 and keeps literals of up to 128 bits.

package template

import (
	"math"
	"math/big"
)

var (
	i128Max = new(big.Int).Sub(new(big.Int).Lsh(big.NewInt(1), 127), big.NewInt(1))
	i128Min = new(big.Int).Neg(new(big.Int).Lsh(big.NewInt(1), 127))
)

// wideValue is n as an integer value: an ordinary one when it fits in 64 bits.
func wideValue(n *big.Int) Value {
	if n.IsInt64() {
		return IntValue(n.Int64())
	}
	v := Value{kind: KindInt, wide: n, i: math.MaxInt64}
	if n.Sign() < 0 {
		v.i = math.MinInt64
	}
	return v
}

// bigOf is an integer or a bool as a big.Int.
func (v Value) bigOf() *big.Int {
	if v.wide != nil {
		return v.wide
	}
	return big.NewInt(v.asInt())
}

func fitsI128(n *big.Int) bool { return n.Cmp(i128Min) >= 0 && n.Cmp(i128Max) <= 0 }

// wideArith is minijinja's checked i128 arithmetic (`//` and `%` Euclidean, `**` with an exponent that
// fits in a u32); ok is false where minijinja's checked operation gives none.
func wideArith(op string, a, b *big.Int) (n *big.Int, ok bool) {
	if !fitsI128(a) || !fitsI128(b) {
		return nil, false
	}
	n = new(big.Int)
	switch op {
	case "+":
		n.Add(a, b)
	case "-":
		n.Sub(a, b)
	case "*":
		n.Mul(a, b)
	case "//":
		if b.Sign() == 0 {
			return nil, false
		}
		n.Div(a, b) // Euclidean, as Rust's div_euclid
	case "%":
		if b.Sign() == 0 {
			return nil, false
		}
		n.Mod(a, b) // Euclidean, as Rust's rem_euclid
	case "**":
		if b.Sign() < 0 || !b.IsUint64() || b.Uint64() > math.MaxUint32 {
			return nil, false
		}
		if a.CmpAbs(big.NewInt(1)) > 0 && b.Uint64() > 127 {
			return nil, false // |a| ≥ 2: past 2**127 whatever a is
		}
		n.Exp(a, b, nil)
	default:
		return nil, false
	}
	return n, fitsI128(n)
}

// floatToI128 is Rust's saturating `f as i128` (NaN is 0).
func floatToI128(f float64) Value {
	switch {
	case math.IsNaN(f):
		return IntValue(0)
	case f >= -9.2e18 && f <= 9.2e18:
		return IntValue(int64(f))
	}
	if math.IsInf(f, -1) {
		return wideValue(new(big.Int).Set(i128Min))
	}
	n, _ := new(big.Float).SetFloat64(math.Trunc(f)).Int(nil)
	if n == nil || n.Cmp(i128Max) > 0 {
		return wideValue(new(big.Int).Set(i128Max))
	}
	if n.Cmp(i128Min) < 0 {
		return wideValue(new(big.Int).Set(i128Min))
	}
	return wideValue(n)
}

// floatFloorDiv is Rust's f64 div_euclid (minijinja's `//` on floats).
func floatFloorDiv(a, b float64) float64 {
	q := math.Trunc(a / b)
	if math.Mod(a, b) < 0 {
		if b > 0 {
			return q - 1
		}
		return q + 1
	}
	return q
}
