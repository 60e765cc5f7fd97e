module github.com/go-git/gcfg

go 1.13

require (
	github.com/pkg/errors v0.9.1
	gopkg.in/warnings.v0 v0.1.2
)
