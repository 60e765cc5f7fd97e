package gcfg

import "testing"

// goose-ls patch: subsection defaults are deep copies (upstream's gob round trip), one per subsection.
func TestReadStringIntoSubsectDefaultsAreCopies(t *testing.T) {
	type subsect struct {
		Color       string
		Orientation string
		Tags        []string
		Size        *int
	}
	size := 3
	res := &struct {
		Default_Profile subsect
		Profile         map[string]*subsect
	}{Default_Profile: subsect{Color: "green", Tags: []string{"a"}, Size: &size}}
	cfg := `
	[profile "one"]
	orientation = left
	tags = b
	[profile "two"]
	color = red`
	if err := ReadStringInto(res, cfg); err != nil {
		t.Fatal(err)
	}
	one, two := res.Profile["one"], res.Profile["two"]
	if one.Color != "green" || one.Orientation != "left" || two.Color != "red" || two.Orientation != "" {
		t.Fatalf("one %+v two %+v", one, two)
	}
	if len(one.Tags) != 2 || one.Tags[0] != "a" || one.Tags[1] != "b" || len(two.Tags) != 1 || len(res.Default_Profile.Tags) != 1 {
		t.Fatalf("tags: one %v two %v default %v", one.Tags, two.Tags, res.Default_Profile.Tags)
	}
	if *one.Size != 3 || one.Size == &size || one.Size == two.Size {
		t.Fatal("the default's pointer was shared, not copied")
	}
}
