package store

import (
	"fmt"
	"io/fs"
	"path"
	"sort"
	"strconv"
	"strings"
)

// Migration is one numbered schema change. Each backend embeds its own
// migrations, written in its database's SQL, numbered alike.
type Migration struct {
	Version int
	Name    string // the file name, for messages
	SQL     string
}

// LoadMigrations reads the migrations in dir of fsys. Files are named
// NNNN_description.sql; their numbers must run 1, 2, 3... without gaps.
// Other files are left out.
func LoadMigrations(fsys fs.FS, dir string) ([]Migration, error) {
	ents, err := fs.ReadDir(fsys, dir)
	if err != nil {
		return nil, fmt.Errorf("store: reading migrations: %w", err)
	}
	var ms []Migration
	for _, ent := range ents {
		name := ent.Name()
		if ent.IsDir() || !strings.HasSuffix(name, ".sql") {
			continue
		}
		num, _, ok := strings.Cut(name, "_")
		if !ok {
			return nil, fmt.Errorf("store: migration %q: name must be NNNN_description.sql", name)
		}
		v, err := strconv.Atoi(num)
		if err != nil || v <= 0 {
			return nil, fmt.Errorf("store: migration %q: name must start with a positive number", name)
		}
		body, err := fs.ReadFile(fsys, path.Join(dir, name))
		if err != nil {
			return nil, fmt.Errorf("store: migration %q: %w", name, err)
		}
		ms = append(ms, Migration{Version: v, Name: name, SQL: string(body)})
	}
	sort.Slice(ms, func(i, j int) bool { return ms[i].Version < ms[j].Version })
	for i, m := range ms {
		if m.Version != i+1 {
			return nil, fmt.Errorf("store: migration %q: expected number %d (numbers must run from 1 without gaps or repeats)", m.Name, i+1)
		}
	}
	return ms, nil
}

// TooNew is the error of a database at schema version cur when this
// program knows versions up to known: it wraps ErrSchemaTooNew.
func TooNew(cur, known int) error {
	return fmt.Errorf("%w: the database is at schema version %d but this program knows versions up to %d; run a newer stolik", ErrSchemaTooNew, cur, known)
}

// NextMigration returns the migration of ms that follows schema version
// cur, nil when cur is the newest; a database at a version newer than ms
// knows fails with TooNew.
func NextMigration(ms []Migration, cur int) (*Migration, error) {
	switch {
	case cur > len(ms):
		return nil, TooNew(cur, len(ms))
	case cur == len(ms):
		return nil, nil
	}
	return &ms[cur], nil
}
