package main

import (
	"context"
	"crypto/rand"
	"encoding/binary"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/stolik-bot/stolik/engine"
	"github.com/stolik-bot/stolik/engine/ai"
	"github.com/stolik-bot/stolik/engine/table"
	"github.com/stolik-bot/stolik/locales"
	"github.com/stolik-bot/stolik/picture"
	"github.com/stolik-bot/stolik/render"
	"github.com/stolik-bot/stolik/store/sqlite"
)

// cmdPlay plays a whole game in the terminal: a new one (the human at seat
// 0, AI players in the other seats), stored with --db when asked, or one
// stored before (--db FILE --table ID) from where it stands.
func cmdPlay(ctx context.Context, args []string, stdin io.Reader, out io.Writer) error {
	l, err := cliLang(args)
	if err != nil {
		return err
	}
	if helpAsked(args) {
		return showHelp(l, "play", out)
	}
	g, rest, hasGame, err := findGame(l, args)
	if err != nil {
		return err
	}
	fs := flag.NewFlagSet("play", flag.ContinueOnError)
	seats := fs.Int("seats", 0, "number of players (you and AI players)")
	fs.String("lang", "en", "language: en, pl or uk (read by cliLang)")
	seed := fs.Uint64("seed", 0, "table seed (0: random)")
	db := fs.String("db", "", "store the game in this SQLite file (see: stolik replay)")
	tableID := fs.String("table", "", "continue the game stored as this table in --db")
	pictures := fs.String("pictures", "", "after every redraw, write your view as pictures to this directory: table-NNN.png, hand-NNN.png and their alt texts (.txt)")
	level := fs.String("ai", ai.Normal, "the AI players' level: easy, normal or hard")
	opts := optionFlags{}
	fs.Var(opts, "option", "a game option k=v (repeatable)")
	if err := parseFlags(l, "play", fs, rest); err != nil {
		return err
	}
	if !ai.IsLevel(*level) {
		return usageError{l.T("cli.play.ai", map[string]any{"Value": shownArg(*level)})}
	}
	set := setFlags(fs)
	var d driver
	var su engine.Setup
	human := engine.Seat(0)
	if *tableID != "" {
		if *db == "" {
			return usageError{l.T("cli.play.table_needs_db", nil)}
		}
		if set["seats"] || set["seed"] || set["option"] {
			return usageError{l.T("cli.play.table_setup", nil)}
		}
		dd, err := resumeDBDriver(ctx, *db, *tableID, l)
		if err != nil {
			return err
		}
		rec := dd.snap.Record
		if hasGame && g.ID() != rec.Setup.Game {
			dd.close()
			return usageError{l.T("cli.play.other_game", map[string]any{"ID": rec.ID, "Game": l.T("game."+rec.Setup.Game+".name", nil)})}
		}
		if !set["lang"] && rec.Lang != "" {
			l = bundle().Lang(rec.Lang)
		}
		g = dd.snap.Game
		d, su, human = dd, rec.Setup, dd.human
	} else {
		if !hasGame {
			return usageError{l.T("cli.which_game", map[string]any{"Action": "play", "List": gameList(l)})}
		}
		if !set["seats"] {
			lo, hi := g.Seats()
			*seats = min(max(lo, 4), hi)
		}
		if *seed == 0 {
			*seed = randomSeed()
		}
		su = engine.Setup{Game: g.ID(), Options: engine.Options(opts), Seats: *seats, Seed: *seed}
		if err := engine.ValidateSeats(g, *seats); err != nil {
			return usageError{render.Error(l, err)}
		}
		if *db != "" {
			d, err = openDBDriver(ctx, *db, su, l, *level)
			if err != nil {
				return dbError(l, *db, "", err)
			}
		} else if d, err = newMemDriver(g, su); err != nil {
			return usageError{render.Error(l, err)}
		}
	}
	defer d.close()
	r, ok := render.For(g.ID())
	if !ok {
		return errors.New(l.T("error.internal", nil))
	}
	t := newTerminal(g, r, l, d, stdin, out, su, human, *level)
	if f, ok := stdin.(*os.File); ok {
		if fi, err := f.Stat(); err == nil && fi.Mode()&os.ModeCharDevice != 0 {
			t.paged = true
		}
	}
	if dd, ok := d.(*dbDriver); ok {
		t.saved = l.T("term.saved", map[string]any{"ID": dd.id, "Name": *db})
		t.resumed = *tableID != ""
	}
	if *pictures != "" {
		if err := os.MkdirAll(*pictures, 0o755); err != nil {
			return errors.New(l.T("cli.pictures", map[string]any{"Name": *pictures}))
		}
		t.pics = &pictureWriter{dir: *pictures, errOut: os.Stderr}
	}
	return t.loop(ctx)
}

func randomSeed() uint64 {
	var b [8]byte
	if _, err := rand.Read(b[:]); err != nil {
		return 1
	}
	return binary.LittleEndian.Uint64(b[:]) | 1
}

// driver applies actions to a table: in memory, or through the table
// service and a SQLite store.
type driver interface {
	state() engine.State
	act(ctx context.Context, s engine.Seat, a engine.Action) ([]engine.Event, error)
	steps() int
	close()
}

type memDriver struct {
	g   engine.Game
	su  engine.Setup
	st  engine.State
	log []engine.Move
}

func newMemDriver(g engine.Game, su engine.Setup) (*memDriver, error) {
	st, err := engine.Start(g, su, nil)
	if err != nil {
		return nil, err
	}
	return &memDriver{g: g, su: su, st: st}, nil
}

func (m *memDriver) state() engine.State { return m.st }
func (m *memDriver) steps() int          { return len(m.log) }
func (m *memDriver) close()              {}

func (m *memDriver) act(_ context.Context, s engine.Seat, a engine.Action) ([]engine.Event, error) {
	mv := engine.Move{Seat: s, Action: a.String()}
	ev, err := engine.Step(m.g, m.st, m.su.Seed, len(m.log), mv, nil)
	if err == nil {
		m.log = append(m.log, mv)
	}
	return ev, err
}

type dbDriver struct {
	db    *sqlite.DB
	svc   *table.Service
	id    string
	snap  *table.Snapshot
	human engine.Seat
}

func openDBDriver(ctx context.Context, path string, su engine.Setup, l *locales.Localizer, level string) (*dbDriver, error) {
	db, err := sqlite.Open(ctx, path)
	if err != nil {
		return nil, err
	}
	svc := table.New(db)
	seats := make([]table.SeatInfo, su.Seats)
	seats[0] = table.SeatInfo{Seat: 0, Kind: table.Human, UserID: "terminal", Name: l.T("ui.you", nil)}
	for s := 1; s < su.Seats; s++ {
		seats[s] = table.SeatInfo{Seat: engine.Seat(s), Kind: table.AI, Bot: level, Name: render.BotName(l, s, level)}
	}
	rec, err := svc.Create(ctx, table.Record{Setup: su, Status: table.StatusPlaying, Seats: seats, Lang: l.Tag(), CreatedBy: "terminal"})
	if err != nil {
		db.Close()
		return nil, err
	}
	snap, err := svc.Get(ctx, rec.ID)
	if err != nil {
		db.Close()
		return nil, err
	}
	return &dbDriver{db: db, svc: svc, id: rec.ID, snap: snap}, nil
}

// resumeDBDriver continues a table stored by an earlier stolik play --db:
// one human seat (the terminal's), AI players in the others, still being
// played.
func resumeDBDriver(ctx context.Context, path, id string, l *locales.Localizer) (*dbDriver, error) {
	db, err := sqlite.OpenExisting(ctx, path)
	if err != nil {
		return nil, dbError(l, path, id, err)
	}
	svc := table.New(db)
	snap, err := svc.Get(ctx, id)
	if err != nil {
		db.Close()
		return nil, dbError(l, path, id, err)
	}
	data := map[string]any{"ID": id, "Name": path}
	fail := func(key string) (*dbDriver, error) {
		db.Close()
		return nil, usageError{l.T(key, data)}
	}
	if done, _ := snap.State.Result(); done || snap.Record.Status == table.StatusFinished {
		return fail("cli.play.over")
	}
	if snap.Record.Status != table.StatusPlaying {
		return fail("cli.play.not_playing")
	}
	human := engine.Seat(-1)
	for _, s := range snap.Record.Seats {
		if s.Kind == table.Human {
			if human >= 0 {
				return fail("cli.play.not_terminal")
			}
			human = s.Seat
		}
	}
	if human < 0 || len(snap.Record.Seats) != snap.Record.Setup.Seats {
		return fail("cli.play.not_terminal")
	}
	return &dbDriver{db: db, svc: svc, id: id, snap: snap, human: human}, nil
}

func (d *dbDriver) state() engine.State { return d.snap.State }
func (d *dbDriver) steps() int          { return d.snap.Version }
func (d *dbDriver) close()              { d.db.Close() }

func (d *dbDriver) act(ctx context.Context, s engine.Seat, a engine.Action) ([]engine.Event, error) {
	ev, snap, err := d.svc.Act(ctx, d.id, s, a.String(), d.snap.Version)
	if err != nil {
		return nil, err
	}
	d.snap = snap
	return ev, nil
}

// pictures writes the human seat's screen as pictures after a redraw, with
// --pictures.
func (t *terminal) pictures(st engine.State) {
	if t.pics == nil {
		return
	}
	sc, ok := render.ScreenOf(t.game.ID(), t.l, st.View(t.human), t.names, engine.AnyLegal(st, t.human))
	t.pics.write(t.game.ID(), sc, ok)
}

// pictureWriter numbers and writes the pictures of one terminal game:
// DIR/table-NNN.png and DIR/hand-NNN.png, each with its alt text in a .txt
// file of the same name.
type pictureWriter struct {
	dir    string
	n      int
	errOut io.Writer
	off    bool // told once why no pictures are written
}

func (w *pictureWriter) write(game string, sc render.Screen, ok bool) {
	if w.off {
		return
	}
	if !ok {
		fmt.Fprintf(w.errOut, "stolik: no pictures: %s has no screen builder yet\n", game)
		w.off = true
		return
	}
	w.n++
	err := w.one("table", sc, picture.Table)
	if err == nil {
		err = w.one("hand", sc, picture.Hand)
	}
	if err != nil {
		fmt.Fprintf(w.errOut, "stolik: no more pictures: %v\n", err)
		w.off = true
	}
}

func (w *pictureWriter) one(kind string, sc render.Screen, draw func(render.Screen) ([]byte, string, error)) error {
	png, alt, err := draw(sc)
	if errors.Is(err, picture.ErrNoHand) {
		return nil
	}
	if err != nil {
		return err
	}
	base := filepath.Join(w.dir, fmt.Sprintf("%s-%03d", kind, w.n))
	if err := os.WriteFile(base+".png", png, 0o644); err != nil {
		return err
	}
	return os.WriteFile(base+".txt", []byte(alt+"\n"), 0o644)
}
