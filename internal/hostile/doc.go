// Package hostile is the adversarial suite of issue 11: one table of hostile recipes and workspaces, each
// at several sizes, run through the built `goose-ls check` and the built language server under an
// address-space limit, asserting the outcome, a memory budget, that nothing from outside the workspace
// leaks, and that the server stays alive and answers. Everything lives in its tests.
package hostile
