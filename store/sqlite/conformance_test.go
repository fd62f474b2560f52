package sqlite_test

import (
	"context"
	"database/sql"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stolik-bot/stolik/store/sqlite"
	"github.com/stolik-bot/stolik/store/storetest"
)

// TestConformance runs the backend-neutral store suite on SQLite.
func TestConformance(t *testing.T) {
	storetest.Run(t, func(t *testing.T) storetest.Backend {
		return adapter.Backend(t, filepath.Join(t.TempDir(), "stolik.db"))
	})
}

// adapter opens SQLite stores with the hooks the conformance suite uses to
// change their file behind their back.
var adapter = storetest.SQL{
	Open: storetest.OpenFunc(sqlite.Open),
	// Exec runs a statement on the file through a connection of its own.
	Exec: func(ctx context.Context, path, q string, args ...any) error {
		esc := strings.NewReplacer("%", "%25", "?", "%3f", "#", "%23").Replace(path)
		db, err := sql.Open("sqlite3", "file:"+esc+"?_busy_timeout=5000")
		if err != nil {
			return err
		}
		defer db.Close()
		_, err = db.ExecContext(ctx, q, args...)
		return err
	},
}
