// Package layers holds the test that enforces the dependency rules of ARCHITECTURE.md.
package layers
