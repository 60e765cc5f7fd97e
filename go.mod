module github.com/goose-ls/goose-ls

go 1.26

require github.com/goccy/go-yaml v1.19.2
