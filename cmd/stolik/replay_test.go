package main

import (
	"bytes"
	"context"
	"fmt"
	"path/filepath"
	"reflect"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/stolik-bot/stolik/engine"
	"github.com/stolik-bot/stolik/engine/table"
	"github.com/stolik-bot/stolik/locales"
	"github.com/stolik-bot/stolik/render"
	"github.com/stolik-bot/stolik/store/open"
	"github.com/stolik-bot/stolik/store/postgres/pgtest"
)

// played is a game played by random moves: the state before each move,
// the moves and their events, and the state after the last.
type played struct {
	g      engine.Game
	su     engine.Setup
	before []engine.State
	moves  []engine.Move
	events [][]engine.Event
	end    engine.State
}

// playRandom plays a game by random legal moves, for at most steps moves
// (the whole game when steps < 0).
func playRandom(t *testing.T, g engine.Game, su engine.Setup, steps int) played {
	t.Helper()
	st, err := engine.Start(g, su, nil)
	if err != nil {
		t.Fatal(err)
	}
	p := played{g: g, su: su}
	pick := engine.NewRand(su.Seed, -7)
	for i := 0; steps < 0 || i < steps; i++ {
		if done, _ := st.Result(); done {
			break
		}
		acting := st.Acting()
		s := acting[pick.IntN(len(acting))]
		legal := st.Legal(s)
		mv := engine.Move{Seat: s, Action: legal[pick.IntN(len(legal))].String()}
		p.before = append(p.before, st.Clone())
		ev, err := engine.Step(g, st, su.Seed, i, mv, nil)
		if err != nil {
			t.Fatalf("step %d %v: %v", i, mv, err)
		}
		p.moves = append(p.moves, mv)
		p.events = append(p.events, ev)
	}
	p.end = st
	return p
}

// store keeps a played game as a terminal table (seat 0 named as the
// terminal names its player) in a new database; its path and table id.
func (p played) store(t *testing.T, l *locales.Localizer) (string, string) {
	t.Helper()
	path := filepath.Join(t.TempDir(), "t.db")
	return path, p.storeIn(t, l, path)
}

// storeIn is store in the database dsn names (a SQLite file, created when
// missing, or a PostgreSQL URL); the table's id.
func (p played) storeIn(t *testing.T, l *locales.Localizer, dsn string) string {
	t.Helper()
	ctx := context.Background()
	db, err := open.Open(ctx, dsn)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	svc := table.New(db)
	seats := []table.SeatInfo{{Seat: 0, Kind: table.Human, UserID: "terminal", Name: l.T("ui.you", nil)}}
	for s := 1; s < p.su.Seats; s++ {
		seats = append(seats, table.SeatInfo{Seat: engine.Seat(s), Kind: table.AI, Bot: "random", Name: l.T("ui.bot", map[string]any{"N": s})})
	}
	rec, err := svc.Create(ctx, table.Record{Setup: p.su, Status: table.StatusPlaying, Seats: seats, Lang: l.Tag()})
	if err != nil {
		t.Fatal(err)
	}
	for i, mv := range p.moves {
		if _, _, err := svc.Act(ctx, rec.ID, mv.Seat, mv.Action, i); err != nil {
			t.Fatalf("move %d %v: %v", i, mv, err)
		}
	}
	return rec.ID
}

// moveLine finds a replay's moves: their number, and their notation when
// shown.
var moveLine = regexp.MustCompile(`(?m)^(\d+)\. [^\n]*?:( \[[^\n]*\])?$`)

// replayOut runs stolik replay with args.
func replayOut(t *testing.T, args ...string) string {
	t.Helper()
	var out bytes.Buffer
	if code := run(context.Background(), append([]string{"replay"}, args...), nil, &out, &out); code != 0 {
		t.Fatalf("replay %v: exit %d:\n%s", args, code, out.String())
	}
	return out.String()
}

// seen are the events a reader may see.
func seen(ev []engine.Event, reader engine.Seat) []engine.Event {
	var out []engine.Event
	for _, e := range ev {
		if e.VisibleTo(reader) {
			out = append(out, e)
		}
	}
	return out
}

// TestReplayShowsOnlyWhatTheReaderKnew plays games of every game to the
// middle and replays them for a spectator and for every seat. Whatever a
// reader may not know must leave the replay unchanged:
//
//   - a move of another seat is told the same way as any other move that
//     would have left the reader knowing the same (the same view after it,
//     the same events it may see), in the game as it was and with the
//     cards hidden from the reader re-dealt (engine.HiddenShuffler, as in
//     render/hidden_test.go);
//   - the table at the end is the same after re-dealing what the reader
//     cannot see.
//
// Through the command: no seat is called "you", a spectator sees no move's
// notation; --reveal, and a finished game, show every move's notation.
func TestReplayShowsOnlyWhatTheReaderKnew(t *testing.T) {
	t.Parallel()
	b := locales.MustLoad()
	for gi, game := range render.Games() {
		g, _ := engine.Lookup(game)
		r, _ := render.For(game)
		lo, hi := g.Seats()
		for _, seats := range []int{lo, hi} {
			t.Run(fmt.Sprintf("%s/%d", game, seats), func(t *testing.T) {
				t.Parallel()
				lang := locales.Languages()[(gi+seats)%3]
				l := b.Lang(lang)
				su := engine.Setup{Game: game, Seats: seats, Seed: uint64(100*gi + seats), Options: engine.Options{}}
				whole := playRandom(t, g, su, -1)
				mid := playRandom(t, g, su, len(whole.moves)/2)
				rec := table.Record{Setup: su, Seats: []table.SeatInfo{{Seat: 0, Name: l.T("ui.you", nil)}}}
				names := replayNames(l, rec)
				for reader := engine.Spectator; int(reader) < seats; reader++ {
					p := replayer{g: g, r: r, l: l, names: names, reader: reader}
					checkSteps(t, p, mid)
					shuffled := mid.end.(engine.HiddenShuffler).ShuffleHidden(reader, engine.NewRand(su.Seed, 99))
					if a, b := p.state(mid.end, false), p.state(shuffled, false); !slices.Equal(a, b) {
						t.Errorf("reader %d: the table at the end depends on cards hidden from it:\n%s\n--- re-dealt ---\n%s",
							reader, strings.Join(a, "\n"), strings.Join(b, "\n"))
					}
				}
				// Through the command.
				path, id := mid.store(t, l)
				notations := func(p played) []string {
					var out []string
					for _, mv := range p.moves {
						out = append(out, "["+mv.Action+"]")
					}
					return out
				}
				youWords := []string{"(you)"}
				for _, lg := range locales.Languages() {
					youWords = append(youWords, b.Lang(lg).T("ui.you", nil))
				}
				for reader := -1; reader < seats; reader++ {
					args := []string{"--db", path, "--table", id, "--lang", lang}
					if reader >= 0 {
						args = append(args, "--seat", fmt.Sprint(reader))
					}
					out := replayOut(t, args...)
					for _, w := range youWords {
						if strings.Contains(out, w) {
							t.Errorf("seat %d: the replay calls a seat %q:\n%s", reader, w, out)
						}
					}
					for _, m := range moveLine.FindAllStringSubmatch(out, -1) {
						n, _ := strconv.Atoi(m[1])
						if mv := mid.moves[n-1]; m[2] != "" && int(mv.Seat) != reader {
							t.Errorf("seat %d: the replay shows move %d's notation %s", reader, n, m[2])
						}
					}
				}
				out := replayOut(t, "--db", path, "--table", id, "--reveal")
				for _, n := range notations(mid) {
					if !strings.Contains(out, n) {
						t.Errorf("--reveal does not show %s", n)
					}
				}
				path, id = whole.store(t, l)
				out = replayOut(t, "--db", path, "--table", id, "--lang", lang)
				for _, n := range notations(whole) {
					if !strings.Contains(out, n) {
						t.Errorf("the replay of a finished game does not show %s", n)
					}
				}
				if !strings.Contains(out, l.T("ui.final_state", nil)) {
					t.Errorf("the replay of a finished game has no final state:\n%s", out)
				}
			})
		}
	}
}

// checkSteps checks that every move of another seat than the reader's is
// told as any move that leaves the reader with the same view and the same
// events it may see (a move's notation, or an event meant for another seat,
// would tell them apart): other moves of that seat in the game as it was,
// and in the game with the cards hidden from the reader re-dealt.
func checkSteps(t *testing.T, p replayer, pl played) {
	t.Helper()
	compared := 0
	for i, mv := range pl.moves {
		if mv.Seat == p.reader {
			continue
		}
		told := p.step(i, mv, pl.events[i])
		after := pl.before[i].Clone()
		if _, err := engine.Step(pl.g, after, pl.su.Seed, i, mv, nil); err != nil {
			t.Fatal(err)
		}
		want := after.View(p.reader)
		worlds := []engine.State{pl.before[i]}
		if i%3 == 0 {
			worlds = append(worlds, pl.before[i].(engine.HiddenShuffler).ShuffleHidden(p.reader, engine.NewRand(pl.su.Seed, -1-i)))
		}
		for _, w := range worlds {
			legal := w.Legal(mv.Seat)
			for k, a := range legal {
				if len(legal) > 16 && k%(len(legal)/16+1) != 0 {
					continue // a sample of the moves, at most 16 or so
				}
				alt := w.Clone()
				ev, err := engine.Step(pl.g, alt, pl.su.Seed, i, engine.Move{Seat: mv.Seat, Action: a.String()}, nil)
				if err != nil || !reflect.DeepEqual(alt.View(p.reader), want) || !reflect.DeepEqual(seen(ev, p.reader), seen(pl.events[i], p.reader)) {
					continue
				}
				compared++
				if got := p.step(i, engine.Move{Seat: mv.Seat, Action: a.String()}, ev); !slices.Equal(got, told) {
					t.Errorf("reader %d, move %d: %v and %s leave the reader knowing the same, but the replay tells them apart:\n%q\n--- versus ---\n%q",
						p.reader, i+1, mv, a, told, got)
					return
				}
			}
		}
	}
	if compared == 0 {
		t.Errorf("reader %d: no move was compared with another", p.reader)
	}
}

// TestReplayPostgres: stolik replay --db postgres://… tells a table stored
// in PostgreSQL exactly as the same table stored in a SQLite file, for
// every reader, and names the database in its errors without the URL's
// password.
func TestReplayPostgres(t *testing.T) {
	t.Parallel()
	dsn := withPassword(pgtest.URL(t), pgSecret)
	l := locales.MustLoad().Lang("en")
	g, _ := engine.Lookup("lynx")
	su := engine.Setup{Game: "lynx", Seats: 3, Seed: 42, Options: engine.Options{}}
	whole := playRandom(t, g, su, -1)
	mid := playRandom(t, g, su, len(whole.moves)/2)
	path, liteMid := mid.store(t, l)
	liteWhole := whole.storeIn(t, l, path)
	pgMid, pgWhole := mid.storeIn(t, l, dsn), whole.storeIn(t, l, dsn)
	for _, c := range []struct {
		name string
		args []string
		mid  bool // the table played to the middle, not to the end
	}{
		{"spectator", nil, true},
		{"seat 0", []string{"--seat", "0"}, true},
		{"seat 2", []string{"--seat", "2"}, true},
		{"reveal", []string{"--reveal"}, true},
		{"in Polish", []string{"--lang", "pl", "--seat", "1"}, true},
		{"finished", nil, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			liteID, pgID := liteWhole, pgWhole
			if c.mid {
				liteID, pgID = liteMid, pgMid
			}
			want := replayOut(t, append([]string{"--db", path, "--table", liteID}, c.args...)...)
			got := replayOut(t, append([]string{"--db", dsn, "--table", pgID}, c.args...)...)
			// The table ids differ: the store makes them.
			if got != strings.ReplaceAll(want, liteID, pgID) {
				t.Errorf("PostgreSQL:\n%s\n--- SQLite:\n%s", got, want)
			}
		})
	}
	missing := dsn[:strings.LastIndex(dsn, "/")] + "/stolik_test_missing?sslmode=disable"
	for _, c := range []struct {
		name string
		dsn  string
		code int
		say  []string
	}{
		{"no such table", dsn, 2, []string{"There is no table nope in " + open.Describe(dsn)}},
		{"no such database", missing, 1, []string{open.Describe(missing), "3D000"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			var out, errOut bytes.Buffer
			code := run(context.Background(), []string{"replay", "--db", c.dsn, "--table", "nope"}, nil, &out, &errOut)
			if code != c.code {
				t.Errorf("exit code %d, want %d\nstdout: %s\nstderr: %s", code, c.code, out.String(), errOut.String())
			}
			for _, s := range c.say {
				if !strings.Contains(errOut.String(), s) {
					t.Errorf("stderr %q does not say %q", errOut.String(), s)
				}
			}
			if all := out.String() + errOut.String(); strings.Contains(all, pgSecret) {
				t.Errorf("the output shows the URL's password:\n%s", all)
			}
		})
	}
}

// replay without --table lists the database's tables, the latest first,
// with their game, players, moves and status, in the language asked for.
func TestReplayListsTables(t *testing.T) {
	t.Parallel()
	l := bundle().Lang("pl")
	lynx, _ := engine.Lookup("lynx")
	chapters, _ := engine.Lookup("chapters")
	done := playRandom(t, lynx, engine.Setup{Game: "lynx", Seats: 2, Seed: 4}, -1)
	path, first := done.store(t, l)
	going := playRandom(t, chapters, engine.Setup{Game: "chapters", Seats: 3, Seed: 5}, 3)
	second := going.storeIn(t, l, path)

	out := replayOut(t, "--db", path, "--lang", "pl")
	a, b := strings.Index(out, second), strings.Index(out, first)
	if a < 0 || b < 0 || a > b {
		t.Fatalf("the tables %s and %s, the latest first, not listed:\n%s", second, first, out)
	}
	for _, want := range []string{
		l.T("game.lynx.name", nil), l.T("game.chapters.name", nil),
		l.N("cli.replay.moves", len(done.moves), nil), l.N("cli.replay.moves", 3, nil),
		l.T("async.history_status.finished", nil), l.T("async.history_status.playing", nil),
		"stolik replay --db " + path + " --table ID",
	} {
		if !strings.Contains(strings.ReplaceAll(out, "\n    ", " "), want) {
			t.Errorf("no %q in:\n%s", want, out)
		}
	}
	empty := filepath.Join(t.TempDir(), "empty.db")
	db, err := open.Open(context.Background(), empty)
	if err != nil {
		t.Fatal(err)
	}
	db.Close()
	if out := replayOut(t, "--db", empty); !strings.Contains(out, bundle().Lang("en").T("cli.replay.no_tables", map[string]any{"DB": empty})) {
		t.Errorf("an empty database: %s", out)
	}
}
