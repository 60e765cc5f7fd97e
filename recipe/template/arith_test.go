// Integer arithmetic and repetition agree with minijinja 2.24 (outputs and messages taken from mj-oracle)
// and never wrap or panic.

package template

import "testing"

func TestArithmeticMatchesMinijinja(t *testing.T) {
	cases := []struct{ src, out, err string }{
		{`{{ 3 * "ab" }}`, "ababab", ""},
		{`{{ 2 * [1] }}`, "[1, 1]", ""},
		{`{{ [1, 2] * 3 }}`, "[1, 2, 1, 2, 1, 2]", ""},
		{`{{ 7 % -1 }}`, "0", ""},
		{`{{ -7 // 2 }}`, "-4", ""},
		{`{{ -7 % 3 }}`, "2", ""},
		{`{{ true + 1 }}`, "2", ""},
		{`{{ 2 ** 62 }}`, "4611686018427387904", ""},
		{`{{ 3037000499 * 3037000499 }}`, "9223372030926249001", ""},
		{`{{ range(10, 0, -3) }}`, "[10, 7, 4, 1]", ""},
		{`{{ 1 / 0 }}`, "inf", ""},
		{`{{ 1 // 0 }}`, "", "invalid operation: unable to calculate 1 // 0"},
		{`{{ 1 % 0 }}`, "", "invalid operation: unable to calculate 1 % 0"},
		{`{{ 2 ** -1 }}`, "", "invalid operation: unable to calculate 2 ** -1"},
		{`{{ "ab" * -1 }}`, "", "invalid operation: strings can only be multiplied with integers"},
		{`{{ [1] * -1 }}`, "", "invalid operation: sequences and iterables can only be multiplied with integers"},
		// an iterator of unknown length (split) cannot be repeated, even 0 times; the count is checked first
		{`{{ 2 * ('a b'|split) }}`, `["a", "b", "a", "b"]`, ""}, // split gives a list since minijinja 2.22
		{`{{ 0 * ('a'|split) }}`, "[]", ""},
		{`{{ 2 * ('a'|split|chain('b')) }}`, "", "invalid operation: cannot repeat unsized iterables"},
		{`{{ ('a b'|split) * -1 }}`, "", "invalid operation: sequences and iterables can only be multiplied with integers"},
		{`{{ 2 * ([1]|chain([2])) }}|{{ 2 * ([1]|zip([2])) }}`, "[1, 2, 1, 2]|[[1, 2], [1, 2]]", ""},
		{`{{ range(1, 10, 0) }}`, "", "invalid operation: cannot create range with step of 0"},
		{`{{ range(1000000) }}`, "", "invalid operation: range has too many elements"},
		// minijinja computes integers in i128 (literals up to 128 bits), `//` and `%` Euclidean
		{`{{ 9223372036854775807 + 1 }}`, "9223372036854775808", ""},
		{`{{ -(-9223372036854775807 - 1) }}`, "9223372036854775808", ""},
		{`{{ 7 ** 31 }}|{{ 2 ** 126 }}|{{ 99999999999999999999 }}`, "157775382034845806615042743|85070591730234615865843651857942052864|99999999999999999999", ""},
		{`{{ 2 ** 127 }}`, "", "invalid operation: unable to calculate 2 ** 127"},
		{`{{ 2 ** 4294967296 }}`, "", "invalid operation: unable to calculate 2 ** 4294967296"},
		{`{{ 170141183460469231731687303715884105727 + 1 }}`, "", "invalid operation: unable to calculate 170141183460469231731687303715884105727 + 1"},
		{`{{ -(-170141183460469231731687303715884105727 - 1) }}`, "", "invalid operation: overflow"},
		{`{{ (-170141183460469231731687303715884105727 - 1)|abs }}`, "", "invalid operation: overflow on abs"},
		{`{{ 7 // -2 }}|{{ 7 % -2 }}|{{ -7 // -2 }}|{{ -7 % -2 }}|{{ 7.0 // -2 }}|{{ -7.5 // -2 }}`, "-3|1|4|1|-3.0|4.0", ""},
		{`{{ 18446744073709551616 is odd }}|{{ 18446744073709551616 is divisibleby(2) }}|{{ [18446744073709551616, 1]|sum }}|{{ 1e20|int }}`, "False|True|18446744073709551617|100000000000000000000", ""},
		{`{{ 'a' * 18446744073709551616 }}`, "", "invalid operation: strings can only be multiplied with integers"},
		// floats print as Rust prints them: no exponent alone, the shortest exponent form inside a list
		{`{{ 1e20 }}|{{ 1e-7 }}|{{ [1e20, 1e-7, 2.5e-5, 1e16, 0.0001] }}|{{ 1e20|pprint }}`, "100000000000000000000.0|0.0000001|[1e20, 1e-7, 2.5e-5, 1e16, 0.0001]|1e20", ""},
	}
	for _, c := range cases {
		tpl, err := Parse("recipe", c.src)
		if err != nil {
			t.Fatalf("%s: %v", c.src, err)
		}
		out, err := tpl.Render(nil, RenderOptions{})
		got := ""
		if err != nil {
			got = err.Error()
		}
		if got != c.err || (err == nil && out.Text != c.out) {
			t.Errorf("%s: output %q error %q, want %q error %q", c.src, out.Text, got, c.out, c.err)
		}
	}
}
