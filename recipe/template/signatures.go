// The parameter lists of minijinja 2.24's builtin filters, tests and globals (filters.rs, tests.rs,
// functions.rs with goose's features), bound by bindArgs before a builtin runs.

package template

import "sync"

// filterSignatures (built on first use, as every table here): the value is the first parameter (a `&State` parameter takes no argument).
var filterSignatures = sync.OnceValue(func() map[string]signature {
	return map[string]signature{
		"safe":       sig(pStr),   // safe(v: String)
		"escape":     sig(pValue), // escape(state, v: &Value)
		"e":          sig(pValue),
		"lower":      sig(pStr), // lower(value: StringInput): Cow<str>'s conversion, keeping safety
		"upper":      sig(pStr),
		"title":      sig(pStr),
		"capitalize": sig(pStr),
		"replace":    sig(pStr, pStr, pStr), // replace(state, value, from, to: StringInput)
		"length":     sig(pValue),
		"count":      sig(pValue),
		// dictsort(v: &Value, kwargs): keyword-only
		"dictsort": sig(pValue).withKwargs(kwParam{"by", pOptStrRef}, kwParam{"case_sensitive", pOptBool},
			kwParam{"reverse", pOptBool}),
		"items":   sig(pValue),
		"reverse": sig(pValue),
		"trim":    sig(pStr, pOptStr),   // trim(value: StringInput, chars: Option<Cow<str>>)
		"join":    sig(pValue, pOptStr), // join(state, value: &Value, joiner: Option<StringInput>)
		// split(value: &Value, split: Option<Arc<str>>, maxsplits: Option<i64>) and lines(value: &Value): the
		// value becomes a string in the body, after the arguments are bound
		"split":   sig(pValue, pOptStrRef, pOptI64),
		"lines":   sig(pValue),
		"default": sig(pValue).withRest(), // default(state, value: &Value, args: Rest<Value>)
		"d":       sig(pValue).withRest(),
		"round":   sig(pValue, pI32.optional()), // round(value: Value, precision: Option<i32>)
		"abs":     sig(pValue),
		"int":     sig(pValue),
		"float":   sig(pValue),
		"attr":    sig(pValue, pValue), // attr(value: &Value, key: &Value)
		"first":   sig(pValue),
		"last":    sig(pValue),
		"min":     sig(pValue),
		"max":     sig(pValue),
		// sort(state, value: Value, kwargs)
		"sort": sig(pValue).withKwargs(kwParam{"case_sensitive", pOptBool}, kwParam{"reverse", pOptBool},
			kwParam{"attribute", pOptStrRef}),
		"list":   sig(pValue),
		"string": sig(pValue),
		"bool":   sig(pValue),
		"batch":  sig(pValue, pUsize, pOptValue), // batch(state, value: Value, count: usize, fill_with: Option<Value>)
		"slice":  sig(pValue, pUsize, pOptValue),
		"sum":    sig(pValue),
		// indent(value: StringInput, width: Option<usize>, indent_first_line: Option<bool>,
		// indent_blank_lines: Option<bool>, kwargs)
		"indent": sig(pStr, pUsize.optional(), pOptBool, pOptBool).withKwargs(kwParam{"width", pUsize.optional()},
			kwParam{"first", pOptBool}, kwParam{"blank", pOptBool}),
		"select":     sig(pValue, pOptStr).withRest(),       // select(state, value, test_name: Option<Cow<str>>, args: Rest<Value>)
		"reject":     sig(pValue, pOptStr).withRest(),       //
		"selectattr": sig(pValue, pStr, pOptStr).withRest(), // selectattr(state, value, attr: Cow<str>, test_name, args)
		"rejectattr": sig(pValue, pStr, pOptStr).withRest(),
		"map":        sig(pValue).withRest(), // map(state, value, args: Rest<Value>): keywords are split off inside
		// groupby(value: Value, attribute: Option<&str>, kwargs)
		"groupby": sig(pValue, pOptStrRef).withKwargs(kwParam{"default", pOptValue},
			kwParam{"case_sensitive", pOptBool}, kwParam{"attribute", pStrRef}),
		// unique(state, values: Value, kwargs)
		"unique": sig(pValue).withKwargs(kwParam{"attribute", pOptStrRef}, kwParam{"case_sensitive", pOptBool}),
		"chain":  sig(pValue).withRest(), // chain(state, value, others: Rest<Value>)
		"zip":    sig(pValue).withRest(),
		"pprint": sig(pValue),
		"format": sig(pValue).withRest(), // format(state, format_str: &Value, format_args: Rest<Value>)
	}
})

// mapKwargs are the keywords `map` splits off its Rest (attribute mapping).
var mapKwargs = []kwParam{{"attribute", pOptValue}, {"default", pValue}}

var pOptI64 = pI64.optional()

// testSignatures: the value is the first parameter.
var testSignatures = sync.OnceValue(func() map[string]signature {
	unary := sig(pValue)
	binary := sig(pValue, pValue)
	m := map[string]signature{
		"startingwith": sig(pStr, pStr), // is_startingwith(v: Cow<str>, other: Cow<str>)
		"endingwith":   sig(pStr, pStr),
		"lower":        sig(pStrRef), // is_lower(name: &str)
		"upper":        sig(pStrRef),
		"filter":       sig(pStrRef), // is_filter(state, name: &str)
		"test":         sig(pStrRef),
	}
	for _, n := range []string{"undefined", "defined", "none", "safe", "escaped", "boolean", "odd", "even",
		"number", "integer", "int", "float", "string", "sequence", "iterable", "mapping", "true", "false"} {
		m[n] = unary
	}
	for _, n := range []string{"divisibleby", "sameas", "in", "eq", "equalto", "==", "ne", "!=", "lt",
		"lessthan", "<", "le", "<=", "gt", "greaterthan", ">", "ge", ">="} {
		m[n] = binary
	}
	return m
})

// globalSignatures: range(lower: isize, upper: Option<isize>, step: Option<isize>); dict(value:
// Option<Value>, kwargs); debug(state, args: Rest<Value>); namespace(defaults: Option<Value>).
var globalSignatures = sync.OnceValue(func() map[string]signature {
	return map[string]signature{
		"range":     sig(pIsize, pIsize.optional(), pIsize.optional()),
		"dict":      sig(pOptValue).withKwargs(),
		"debug":     sig().withRest(),
		"namespace": sig(pOptValue),
	}
})
