package store

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/stolik-bot/stolik/engine"
	"github.com/stolik-bot/stolik/engine/table"
)

// What every backend checks before it writes a table, and how it decodes
// and checks the rows it reads back: the same rules, and the same errors,
// whatever the database.

// ValidStatus reports whether s is a table's status.
func ValidStatus(s table.Status) bool {
	switch s {
	case table.StatusLobby, table.StatusPlaying, table.StatusFinished, table.StatusAbandoned:
		return true
	}
	return false
}

// ValidKind reports whether k is a seat's kind.
func ValidKind(k table.SeatKind) bool {
	return k == table.Human || k == table.AI
}

// CheckRecord rejects a record that could not be loaded back.
func CheckRecord(rec table.Record) error {
	if rec.ID == "" {
		return errors.New("store: table id is empty")
	}
	if !ValidStatus(rec.Status) {
		return fmt.Errorf("store: table %s: unknown status %q", rec.ID, rec.Status)
	}
	for _, s := range rec.Seats {
		if !ValidKind(s.Kind) {
			return fmt.Errorf("store: table %s: seat %d: unknown seat kind %q", rec.ID, s.Seat, s.Kind)
		}
		if s.Seat < 0 {
			return fmt.Errorf("store: table %s: negative seat %d", rec.ID, s.Seat)
		}
	}
	return nil
}

// EncodeRecord checks a record to be stored (CheckRecord) and returns its
// options as the JSON text the tables row holds.
func EncodeRecord(rec table.Record) (options string, err error) {
	if err := CheckRecord(rec); err != nil {
		return "", err
	}
	opts, err := json.Marshal(rec.Setup.Options)
	if err != nil {
		return "", fmt.Errorf("store: table %s: encoding options: %w", rec.ID, err)
	}
	return string(opts), nil
}

// CheckAppendStatus rejects the status an append would set unless it is
// empty (unchanged) or a table's status.
func CheckAppendStatus(id string, status table.Status) error {
	if status != "" && !ValidStatus(status) {
		return fmt.Errorf("store: table %s: unknown status %q", id, status)
	}
	return nil
}

// CheckReason returns the reason a table is marked corrupt for, trimmed;
// an empty one is refused.
func CheckReason(id, reason string) (string, error) {
	reason = strings.TrimSpace(reason)
	if reason == "" {
		return "", fmt.Errorf("store: table %s: marking it corrupt needs a reason", id)
	}
	return reason, nil
}

// Corrupt is the *table.CorruptError of table id, saying what is wrong.
func Corrupt(id, format string, args ...any) error {
	return &table.CorruptError{ID: id, Err: fmt.Errorf(format, args...)}
}

// Marked is the *table.CorruptError of a table marked corrupt for reason;
// it wraps ErrMarkedCorrupt.
func Marked(id, reason string) error {
	return &table.CorruptError{ID: id, Err: fmt.Errorf("%w: %s", ErrMarkedCorrupt, reason)}
}

// DecodeTable sets what of rec the tables row of table id holds as text —
// its options (a JSON object of strings), status and seed — failing with a
// *table.CorruptError when they cannot be decoded.
func DecodeTable(id string, rec *table.Record, options, status string, seed int64) error {
	rec.Setup.Seed = uint64(seed)
	if err := json.Unmarshal([]byte(options), &rec.Setup.Options); err != nil {
		return Corrupt(id, "options %q are not a JSON object of strings: %v", options, err)
	}
	rec.Status = table.Status(status)
	if !ValidStatus(rec.Status) {
		return Corrupt(id, "unknown status %q", status)
	}
	return nil
}

// DecodeSeat sets a seat's number and kind as a seats row of table id
// holds them, failing with a *table.CorruptError when they are not a
// seat's.
func DecodeSeat(id string, s *table.SeatInfo, seat int, kind string) error {
	s.Seat, s.Kind = engine.Seat(seat), table.SeatKind(kind)
	if !ValidKind(s.Kind) {
		return Corrupt(id, "seat %d: unknown seat kind %q", seat, kind)
	}
	if seat < 0 {
		return Corrupt(id, "negative seat %d", seat)
	}
	return nil
}

// CheckEntry fails with a *table.CorruptError unless the log entry read at
// position want of table id's log is entry want: a log runs 0, 1, 2…
func CheckEntry(id string, n, want int) error {
	if n != want {
		return Corrupt(id, "log entry %d found where entry %d was expected", n, want)
	}
	return nil
}

// CheckLogLen fails with a *table.CorruptError unless table id's log holds
// as many entries as its recorded length. Rows lost from the end of the log
// (or all of it) leave no gap to see: only the recorded length tells, and a
// table is never served from a partial log.
func CheckLogLen(id string, stored, recorded int) error {
	if stored != recorded {
		return Corrupt(id, "the log holds %d entries but its recorded length is %d", stored, recorded)
	}
	return nil
}
