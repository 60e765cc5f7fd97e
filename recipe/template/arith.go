// Arithmetic: checked integer operations (never a panic, never a silent wrap), float operations, and
// string/list repetition and concatenation within the value cap.

package template

import (
	"math"
	"math/bits"
	"strings"
)

func (ec *evalCtx) arith(e *Binary, l, r Value) (Value, error) {
	bad := func() (Value, error) {
		return Value{}, ec.fail(e.R, "invalid operation: tried to use %s operator on unsupported types %s and %s", e.Op, l.typeName(), r.typeName())
	}
	switch {
	case e.Op == "+" && l.kind == KindString && r.kind == KindString:
		if err := ec.fits(e.R, addSize(len(l.s), len(r.s))); err != nil {
			return Value{}, err
		}
		return StringValue(l.s + r.s), nil
	case e.Op == "+" && l.kind == KindSeq && r.kind == KindSeq:
		if err := ec.fitsItems(e.R, len(l.seq)+len(r.seq), 0); err != nil {
			return Value{}, err
		}
		return ec.fitsValue(e.R, concatSeqs(l, r))
	case e.Op == "*" && (l.kind == KindString || r.kind == KindString):
		// minijinja's mul: a string on either side repeats; the other side must convert to usize
		v, n := l, r
		if l.kind != KindString {
			v, n = r, l
		}
		return ec.repeat(e, v, repeatCount(n))
	case e.Op == "*" && repeatsSequence(l, r):
		v, n := l, r
		if l.kind != KindSeq {
			v, n = r, l
		}
		return ec.repeat(e, v, repeatCount(n))
	}
	if !l.isNumber() || !r.isNumber() {
		return bad()
	}
	if l.kind != KindFloat && r.kind != KindFloat && e.Op != "/" {
		if l.wide == nil && r.wide == nil {
			if v, ok := intArith(e.Op, l.asInt(), r.asInt()); ok {
				return v, nil
			}
		}
		// past 64 bits (or where int64 has no answer) minijinja's i128 decides
		if n, ok := wideArith(e.Op, l.bigOf(), r.bigOf()); ok {
			return wideValue(n), nil
		}
		// minijinja's message prints the operands as they were (`false ** -1`)
		return Value{}, ec.fail(e.R, "invalid operation: unable to calculate %s %s %s", l.String(), e.Op, r.String())
	}
	x, _ := l.asFloat()
	y, _ := r.asFloat()
	switch e.Op {
	case "+":
		return FloatValue(x + y), nil
	case "-":
		return FloatValue(x - y), nil
	case "*":
		return FloatValue(x * y), nil
	case "/":
		return FloatValue(x / y), nil
	case "//":
		return FloatValue(floatFloorDiv(x, y)), nil
	case "%":
		return FloatValue(math.Mod(x, y)), nil
	case "**":
		return FloatValue(math.Pow(x, y)), nil
	}
	return bad()
}

// repeatsSequence is minijinja's choice in `*`: the first object operand (left, else right) must be a
// sequence or an iterator; a map or a function there makes it an unsupported operation.
func repeatsSequence(l, r Value) bool {
	isObject := func(v Value) bool { return v.kind == KindSeq || v.kind == KindMap || v.kind == KindFunc }
	if isObject(l) {
		return l.kind == KindSeq
	}
	return r.kind == KindSeq
}

// repeatCount is minijinja's `as_usize` of a repetition count: an integer, a bool or an integral
// float that is not negative; -1 when it does not convert. A usize past int64 (up to 2^64-1) counts as
// math.MaxInt64: too many for any value but the empty string.
func repeatCount(n Value) int64 {
	switch n.kind {
	case KindInt:
		if n.wide != nil {
			if n.wide.Sign() > 0 && n.wide.Cmp(u64Max) <= 0 {
				return math.MaxInt64
			}
			return -1 // not a usize
		}
		return max(n.i, -1)
	case KindBool:
		return n.asInt()
	case KindFloat:
		if n.f >= 0 && n.f == math.Trunc(n.f) && n.f < two64 {
			return int64(min(n.f, math.MaxInt64))
		}
	}
	return -1
}

// asInt is an integer or boolean as an int64.
func (v Value) asInt() int64 {
	if v.kind == KindBool {
		if v.b {
			return 1
		}
		return 0
	}
	return v.i
}

// asI128 is minijinja's `i128::try_from` of a value: an integer, a bool, or a float that survives Rust's
// saturating `as i64` round trip (`2.0` yes, `2.5`, NaN and `1e20` no).
func (v Value) asI128() (int64, bool) {
	switch v.kind {
	case KindInt, KindBool:
		return v.asInt(), true
	case KindFloat:
		var n int64
		switch {
		case math.IsNaN(v.f):
			return 0, false
		case v.f >= math.MaxInt64:
			n = math.MaxInt64
		case v.f <= math.MinInt64:
			n = math.MinInt64
		default:
			n = int64(v.f)
		}
		return n, float64(n) == v.f
	}
	return 0, false
}

// maxConcatDepth is minijinja's MergeSeq::MAX_DEPTH: a chain of `+` deeper than this is flattened.
const maxConcatDepth = 32

// concatSeqs is `a + b` of two sequences: minijinja 2.24 keeps it as a lazy iterable of the operands
// (an iterator of known length unless one operand has none) and, once 33 of them are chained, turns
// the chain into a plain list when every operand has a length (otherwise it only flattens the chain).
func concatSeqs(l, r Value) Value {
	joined := sizedIterValue(append(append(make([]Value, 0, len(l.seq)+len(r.seq)), l.seq...), r.seq...))
	if l.iter == iterUnsized || r.iter == iterUnsized {
		joined.iter = iterUnsized
	}
	joined.concat = max(l.concat, r.concat) + 1
	if joined.concat > maxConcatDepth {
		joined.concat = 1
		if joined.iter == iterSized {
			joined.iter, joined.concat = iterNone, 0
		}
	}
	return joined
}

// maxRepeatedString is minijinja's MAX_REPEATED_STRING_LEN (bytes).
const maxRepeatedString = 100_000_000

// repeat is `s * n` / `list * n` (either order); a negative count is minijinja's error.
func (ec *evalCtx) repeat(e *Binary, v Value, n int64) (Value, error) {
	if n < 0 {
		if v.kind == KindString {
			return Value{}, ec.fail(e.R, "invalid operation: strings can only be multiplied with integers")
		}
		return Value{}, ec.fail(e.R, "invalid operation: sequences and iterables can only be multiplied with integers")
	}
	if v.kind == KindString {
		// minijinja 2.24 refuses a result past 100 MB before building it
		if n > 0 && len(v.s) > maxRepeatedString/int(min(n, maxRepeatedString+1)) {
			return Value{}, ec.fail(e.R, "invalid operation: repeated string is too large")
		}
		if v.s == "" {
			return v, nil
		}
		if n > math.MaxInt32 {
			return Value{}, ec.fits(e.R, -1)
		}
		if err := ec.fits(e.R, mulSize(len(v.s), int(n))); err != nil {
			return Value{}, err
		}
		return StringValue(strings.Repeat(v.s, int(n))), nil
	}
	if v.iter == iterUnsized {
		// minijinja repeats by the iterable's known length (`enumerator_len`), checked after the count
		return Value{}, ec.fail(e.R, "invalid operation: cannot repeat unsized iterables")
	}
	if n > math.MaxInt32 {
		return Value{}, ec.fits(e.R, -1)
	}
	if err := ec.fits(e.R, mulSize(v.byteSize(), int(n))); err != nil {
		return Value{}, err
	}
	if err := ec.fitsItems(e.R, mulSize(len(v.seq), int(n)), 0); err != nil {
		return Value{}, err
	}
	out := make([]Value, 0, len(v.seq)*int(n))
	for i := int64(0); i < n; i++ {
		out = append(out, v.seq...)
	}
	return sizedIterValue(out), nil
}

// intArith is integer arithmetic that reports minijinja's "unable to calculate" instead of wrapping or
// panicking. minijinja widens to i128 where goose-ls stays within int64, so results between 2^63 and 2^127
// are an error here and a number there.
// intArith is integer arithmetic in int64; ok is false where int64 has no answer (overflow, a zero
// divisor, a negative exponent), which wideArith then decides. `//` and `%` are Euclidean, as minijinja's.
func intArith(op string, a, b int64) (Value, bool) {
	switch op {
	case "+":
		s := a + b
		if (a >= 0) == (b >= 0) && (s >= 0) != (a >= 0) {
			return Value{}, false
		}
		return IntValue(s), true
	case "-":
		d := a - b
		if (a >= 0) != (b >= 0) && (d >= 0) != (a >= 0) {
			return Value{}, false
		}
		return IntValue(d), true
	case "*":
		p, ok := mulInt64(a, b)
		return IntValue(p), ok
	case "//":
		if b == 0 || (a == math.MinInt64 && b == -1) {
			return Value{}, false
		}
		q, m := a/b, a%b
		if m < 0 {
			if b > 0 {
				q--
			} else {
				q++
			}
		}
		return IntValue(q), true
	case "%":
		if b == 0 {
			return Value{}, false
		}
		if b == -1 {
			return IntValue(0), true
		}
		m := a % b
		if m < 0 {
			if b < 0 {
				m -= b
			} else {
				m += b
			}
		}
		return IntValue(m), true
	case "**":
		if b < 0 {
			return Value{}, false
		}
		res := int64(1)
		base := a
		for exp := b; exp > 0; exp >>= 1 {
			var ok bool
			if exp&1 == 1 {
				if res, ok = mulInt64(res, base); !ok {
					return Value{}, false
				}
			}
			if exp > 1 {
				if base, ok = mulInt64(base, base); !ok {
					return Value{}, false
				}
			}
		}
		return IntValue(res), true
	}
	return Value{}, false
}

// mulInt64 is a*b and whether it fits in an int64.
func mulInt64(a, b int64) (int64, bool) {
	if a == 0 || b == 0 {
		return 0, true
	}
	neg := (a < 0) != (b < 0)
	hi, lo := bits.Mul64(absU64(a), absU64(b))
	if hi != 0 {
		return 0, false
	}
	if neg {
		if lo > 1<<63 {
			return 0, false
		}
		return -int64(lo), true // lo == 1<<63 gives MinInt64
	}
	if lo > math.MaxInt64 {
		return 0, false
	}
	return int64(lo), true
}

func absU64(a int64) uint64 {
	if a < 0 {
		return uint64(-(a + 1)) + 1
	}
	return uint64(a)
}
