// goose's recipe library as its ACP server lists it (recipe/manifest.rs): every listed recipe with an id
// derived from its path, its modification time and its sub-recipe paths made absolute, newest first.

package library

import (
	"encoding/binary"
	"fmt"
	"math/bits"
	"os"
	"path/filepath"
	"sort"
	"time"
)

// Manifest is one recipe of the library (goose's RecipeFileManifest).
type Manifest struct {
	ID           string // ManifestID of Path
	Path         string
	Recipe       *Recipe
	LastModified string // the file's modification time as chrono's to_rfc3339 writes it
}

// Manifests lists the library as goose's list_recipe_file_manifests does: List's recipes, each with its
// modification time (a file whose time cannot be read is left out) and its sub-recipe paths resolved
// against its folder (a path that does not resolve is kept), sorted by that time, newest first; equal
// times keep List's order.
func (rs Resolver) Manifests() []Manifest {
	var out []Manifest
	rs.scan(func(e Entry, abs string, r *Recipe) {
		st, err := os.Stat(abs)
		if err != nil {
			return
		}
		resolveSubRecipePaths(r, filepath.Dir(abs))
		out = append(out, Manifest{ID: ManifestID(e.Path), Path: e.Path, Recipe: r, LastModified: rfc3339(st.ModTime())})
	})
	sort.SliceStable(out, func(i, j int) bool { return out[i].LastModified > out[j].LastModified })
	return out
}

// ManifestByID finds the library's recipe with id (goose: "recipe not found: {id}" when none).
func (rs Resolver) ManifestByID(id string) (Manifest, bool) {
	for _, m := range rs.Manifests() {
		if m.ID == id {
			return m, true
		}
	}
	return Manifest{}, false
}

// LoadManifestRecipe reads one recipe file as goose's load_recipe_from_path: parsed without rendering,
// sub-recipe paths resolved against its folder.
func LoadManifestRecipe(path string, text []byte) (*Recipe, error) {
	r, err := Parse(text)
	if err != nil {
		return nil, err
	}
	resolveSubRecipePaths(r, filepath.Dir(path))
	return r, nil
}

func resolveSubRecipePaths(r *Recipe, dir string) {
	for i := range r.SubRecipes {
		if p, err := resolveSubRecipePath(r.SubRecipes[i].Path, dir); err == nil {
			r.SubRecipes[i].Path = p
		}
	}
}

// rfc3339 is chrono's DateTime<Utc>::to_rfc3339: the fraction only when non-zero, in 3, 6 or 9 digits,
// and "+00:00" rather than "Z".
func rfc3339(t time.Time) string {
	t = t.UTC()
	frac := ""
	switch ns := t.Nanosecond(); {
	case ns == 0:
	case ns%1_000_000 == 0:
		frac = fmt.Sprintf(".%03d", ns/1_000_000)
	case ns%1_000 == 0:
		frac = fmt.Sprintf(".%06d", ns/1_000)
	default:
		frac = fmt.Sprintf(".%09d", ns)
	}
	return t.Format("2006-01-02T15:04:05") + frac + "+00:00"
}

// ManifestID is goose's short_id_from_path: Rust's DefaultHasher (SipHash-1-3 with zero keys) over the
// path as `str::hash` feeds it — its bytes, then 0xff — as 16 lowercase hex digits. No Go module offers
// the 1-3 variant, so it is written out here (tested against values Rust's std computes).
func ManifestID(path string) string {
	return fmt.Sprintf("%016x", sipHash13(append([]byte(path), 0xff)))
}

// sipHash13 is SipHash with one compression and three finalization rounds, keys zero.
func sipHash13(msg []byte) uint64 {
	v0 := uint64(0x736f6d6570736575)
	v1 := uint64(0x646f72616e646f6d)
	v2 := uint64(0x6c7967656e657261)
	v3 := uint64(0x7465646279746573)
	round := func() {
		v0 += v1
		v1 = bits.RotateLeft64(v1, 13)
		v1 ^= v0
		v0 = bits.RotateLeft64(v0, 32)
		v2 += v3
		v3 = bits.RotateLeft64(v3, 16)
		v3 ^= v2
		v0 += v3
		v3 = bits.RotateLeft64(v3, 21)
		v3 ^= v0
		v2 += v1
		v1 = bits.RotateLeft64(v1, 17)
		v1 ^= v2
		v2 = bits.RotateLeft64(v2, 32)
	}
	n := len(msg)
	for len(msg) >= 8 {
		m := binary.LittleEndian.Uint64(msg)
		v3 ^= m
		round()
		v0 ^= m
		msg = msg[8:]
	}
	var last [8]byte
	copy(last[:], msg)
	last[7] = byte(n)
	m := binary.LittleEndian.Uint64(last[:])
	v3 ^= m
	round()
	v0 ^= m
	v2 ^= 0xff
	round()
	round()
	round()
	return v0 ^ v1 ^ v2 ^ v3
}
