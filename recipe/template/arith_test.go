// Integer arithmetic and repetition agree with minijinja 2.20 (outputs and messages taken from mj-oracle)
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
		{`{{ range(1, 10, 0) }}`, "", "invalid operation: cannot create range with step of 0"},
		{`{{ range(1000000) }}`, "", "invalid operation: range has too many elements"},
		// minijinja widens to i128 here; goose-ls stays in int64 and says so instead of wrapping
		{`{{ 9223372036854775807 + 1 }}`, "", "invalid operation: unable to calculate 9223372036854775807 + 1"},
		{`{{ -(-9223372036854775807 - 1) }}`, "", "invalid operation: unable to calculate -(-9223372036854775808)"},
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
