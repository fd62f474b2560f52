package store

import (
	"testing"
	"testing/fstest"
)

func TestMigrationFiles(t *testing.T) {
	sql := &fstest.MapFile{Data: []byte("CREATE TABLE x (a INTEGER);")}
	for _, c := range []struct {
		name  string
		files []string
		ok    bool
	}{
		{"in order", []string{"0001_a.sql", "0002_b.sql", "README.md"}, true},
		{"gap", []string{"0001_a.sql", "0003_c.sql"}, false},
		{"repeat", []string{"0001_a.sql", "0001_b.sql"}, false},
		{"zero", []string{"0000_a.sql"}, false},
		{"no number", []string{"init.sql"}, false},
		{"not a number", []string{"one_init.sql"}, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			fsys := fstest.MapFS{}
			for _, f := range c.files {
				fsys["m/"+f] = sql
			}
			_, err := LoadMigrations(fsys, "m")
			if (err == nil) != c.ok {
				t.Fatalf("LoadMigrations(%v): %v", c.files, err)
			}
		})
	}
}
