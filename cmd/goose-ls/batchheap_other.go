//go:build !linux

// No huge-page advice outside Linux: the batch check keeps only its GC target there.
package main

func adviseHugePages([]byte) {}
