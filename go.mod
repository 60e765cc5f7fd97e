module github.com/goose-ls/goose-ls

go 1.26

require github.com/goccy/go-yaml v1.19.2

require (
	github.com/google/go-cmp v0.7.0 // indirect
	github.com/santhosh-tekuri/jsonschema/v5 v5.3.1 // indirect
)
