// Case mapping against mj-oracle: upper, lower, title and capitalize with Rust's full Unicode mappings
// (ß → SS, İ → i̇) and str::to_lowercase's final sigma.

package template

import "testing"

func TestMinijinjaCaseMapping(t *testing.T) {
	runOracleRows(t, nil, []oracleRow{
		{"{{ 'ß'|upper }}|{{ 'straße ﬀ ŉ'|upper }}|{{ 'İ'|lower }}|{{ 'ΟΔΟΣ ΣΑ Σ'|lower }}|{{ 'ǅ'|lower }}{{ 'ǆ'|upper }}", "SS|STRASSE FF ʼN|i̇|οδος σα σ|ǆǄ", "", "SS|STRASSE FF ʼN|i̇|οδος σα σ|ǆǄ", ""},
		{"{{ 'ßa xß'|title }}|{{ 'a·b a_b a1b'|title }}|{{ \"it's ΟΔΟΣ\"|title }}|{{ 'ǆx'|title }}|{{ 'a\\u00a0b a\\u2003b'|title }}", "SSa Xß|A·b A_B A1b|It'S Οδοσ|Ǆx|A B A B", "", "SSa Xß|A·b A_B A1b|It'S Οδοσ|Ǆx|A B A B", ""},
		{"{{ 'ßAB'|capitalize }}|{{ 'aΟΔΟΣ'|capitalize }}|{{ 'İX'|capitalize }}|{{ ''|capitalize }}|{{ 'ǆǅ'|capitalize }}", "SSab|Aοδος|İx||Ǆǆ", "", "SSab|Aοδος|İx||Ǆǆ", ""},
		{"{{ 'Σ'|lower }}|{{ 'AΣ'|lower }}|{{ 'AΣ.'|lower }}|{{ 'A.Σ'|lower }}|{{ 'AΣB'|lower }}|{{ \"A'Σ\"|lower }}", "σ|aς|aς.|a.ς|aσb|a'ς", "", "σ|aς|aς.|a.ς|aσb|a'ς", ""},
		// the lower/upper tests: Unicode's Lowercase and Uppercase properties
		{"{{ 'ª' is lower }}|{{ 'ʰ' is lower }}|{{ 'Ⅰ' is upper }}|{{ '' is lower }}|{{ 'a1' is lower }}|{{ 'A B' is upper }}|{{ 'ǅ' is upper }}|{{ 'ǅ' is lower }}|{{ 'ⓐ' is lower }}|{{ 'Ⓐ' is upper }}", "True|True|True|True|False|False|False|False|True|True", "", "True|True|True|True|False|False|False|False|True|True", ""},
		{"{{ 'ⓐ'|upper }}|{{ 'ⅰ'|upper }}|{{ 'ⓐ x'|title }}|{{ 'ǈ'|lower }}{{ 'ǈ'|upper }}", "Ⓐ|Ⅰ|Ⓐ X|ǉǇ", "", "Ⓐ|Ⅰ|Ⓐ X|ǉǇ", ""},
		{"{{ 'ΣΑΣ'|capitalize }}|{{ 'aΣ b'|title }}", "Σας|Aσ B", "", "Σας|Aσ B", ""},
	})
}
