package sqlite

import (
	"context"
	"database/sql"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// walCopy writes n transactions to a new database in WAL mode without a
// checkpoint and copies the file and its log as a crash would leave them;
// the copy's path and the log's frame size.
func walCopy(t *testing.T, n int) (string, int) {
	t.Helper()
	dir := t.TempDir()
	src := filepath.Join(dir, "src.db")
	db, err := sql.Open("sqlite3", "file:"+src+"?_journal_mode=WAL")
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	db.SetMaxOpenConns(1)
	for _, q := range []string{`PRAGMA wal_autocheckpoint = 0`, `CREATE TABLE t (n INTEGER, pad TEXT)`} {
		if _, err := db.Exec(q); err != nil {
			t.Fatal(err)
		}
	}
	for i := range n {
		// The last transaction writes several pages (the row overflows
		// into more), as a move with its table's row does.
		pad := 300
		if i == n-1 {
			pad = 3 * 4096
		}
		if _, err := db.Exec(`INSERT INTO t VALUES (?, ?)`, i, strings.Repeat("x", pad)); err != nil {
			t.Fatal(err)
		}
	}
	var page int
	if err := db.QueryRow(`PRAGMA page_size`).Scan(&page); err != nil {
		t.Fatal(err)
	}
	dst := filepath.Join(dir, "crashed.db")
	for _, suffix := range []string{"", "-wal"} {
		b, err := os.ReadFile(src + suffix)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(dst+suffix, b, 0o600); err != nil {
			t.Fatal(err)
		}
	}
	return dst, walFrameHeader + page
}

// rows counts what SQLite recovers of the copy.
func rows(t *testing.T, path string) int {
	t.Helper()
	db, err := sql.Open("sqlite3", "file:"+path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	var n int
	if err := db.QueryRowContext(context.Background(), `SELECT COUNT(*) FROM t`).Scan(&n); err != nil {
		return -1
	}
	return n
}

// TestCheckWAL: a log with a flipped bit in a committed frame, or a
// damaged header, is reported before SQLite opens the file, and SQLite
// then indeed recovers fewer rows; a sound log, one cut inside its last
// frame (a transaction never acknowledged) and no log are not.
func TestCheckWAL(t *testing.T) {
	t.Parallel()
	const n = 60
	cases := []struct {
		name   string
		damage func(b []byte, frame int) []byte
		report string
	}{
		{"sound", func(b []byte, _ int) []byte { return b }, ""},
		{"cut inside the last frame", func(b []byte, frame int) []byte { return b[:len(b)-frame/2] }, ""},
		// What a process killed inside SQLite's commit leaves (the commit
		// frame written, an earlier frame of the same transaction written
		// over and not yet summed again): seen after a SIGKILL in
		// cmd/stolik's TestKillUnderLoad.
		{"torn inside the last transaction, before its commit frame", func(b []byte, frame int) []byte {
			last := (len(b)-walHeader)/frame - 1
			b[walHeader+(last-1)*frame+walFrameHeader+100] ^= 0x10
			return b
		}, ""},
		{"a bit flipped in frame 10", func(b []byte, frame int) []byte {
			b[walHeader+9*frame+walFrameHeader+100] ^= 0x10
			return b
		}, "frame 10 of"},
		{"the header flipped", func(b []byte, _ int) []byte { b[1] ^= 0x01; return b }, "header is damaged"},
		{"the header's checksum flipped", func(b []byte, _ int) []byte { b[25] ^= 0x01; return b }, "header fails its checksum"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			path, frame := walCopy(t, n)
			b, err := os.ReadFile(path + "-wal")
			if err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(path+"-wal", tc.damage(b, frame), 0o600); err != nil {
				t.Fatal(err)
			}
			problems, err := CheckWAL(path)
			if err != nil {
				t.Fatal(err)
			}
			got := rows(t, path)
			switch {
			case tc.report == "" && len(problems) > 0:
				t.Errorf("reported: %q", problems)
			case tc.report == "" && got != n && tc.name == "sound":
				t.Errorf("a sound log recovers %d rows of %d", got, n)
			case tc.report == "" && tc.name != "sound" && got != n-1:
				t.Errorf("a log cut in its last transaction recovers %d rows, want %d", got, n-1)
			case tc.report != "" && (len(problems) != 1 || !strings.Contains(problems[0], tc.report)):
				t.Errorf("problems %q, want one saying %q", problems, tc.report)
			case tc.report != "" && got >= n:
				t.Errorf("reported a loss, yet SQLite recovers %d rows of %d", got, n)
			}
		})
	}
	if p, err := CheckWAL(filepath.Join(t.TempDir(), "none.db")); err != nil || p != nil {
		t.Errorf("no log: %q, %v", p, err)
	}
}
