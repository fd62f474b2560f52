package main

import (
	"bufio"
	"context"
	"crypto/rand"
	"encoding/binary"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/stolik-bot/stolik/engine"
	"github.com/stolik-bot/stolik/engine/princesses"
	"github.com/stolik-bot/stolik/engine/table"
	"github.com/stolik-bot/stolik/locales"
	"github.com/stolik-bot/stolik/picture"
	"github.com/stolik-bot/stolik/render"
	"github.com/stolik-bot/stolik/store"
)

// maxListed is how many legal actions are listed by number; past that the
// game's hint says how to type one.
const maxListed = 40

func cmdPlay(ctx context.Context, args []string, stdin io.Reader, out io.Writer) error {
	g, rest, err := splitGame("play", args)
	if err != nil {
		return err
	}
	fs := flag.NewFlagSet("play", flag.ContinueOnError)
	fs.SetOutput(out)
	lo, _ := g.Seats()
	seats := fs.Int("seats", max(lo, 4), "number of players (you and AI players)")
	lang := fs.String("lang", "en", "language: en, pl or uk")
	seed := fs.Uint64("seed", 0, "table seed (0: random)")
	db := fs.String("db", "", "store the game in this SQLite file (see: stolik replay)")
	pictures := fs.String("pictures", "", "after every redraw, write your view as pictures to this directory: table-NNN.png, hand-NNN.png and their alt texts (.txt)")
	opts := optionFlags{}
	fs.Var(opts, "option", "a game option k=v (repeatable)")
	if err := fs.Parse(rest); err != nil {
		return err
	}
	if *seed == 0 {
		*seed = randomSeed()
	}
	l, r, err := textFor(g, *lang)
	if err != nil {
		return err
	}
	su := engine.Setup{Game: g.ID(), Options: engine.Options(opts), Seats: *seats, Seed: *seed}
	var d driver
	if *db != "" {
		d, err = openDBDriver(ctx, *db, su, l)
	} else {
		d, err = newMemDriver(g, su)
	}
	if err != nil {
		return fmt.Errorf("%s", render.Error(l, err))
	}
	defer d.close()
	t := &terminal{game: g, r: r, l: l, d: d, in: bufio.NewScanner(stdin), out: out, seed: *seed}
	t.names = make(render.Names, *seats)
	t.names[0] = l.T("ui.you", nil)
	for s := 1; s < *seats; s++ {
		t.names[s] = l.T("ui.bot", map[string]any{"N": s})
	}
	if *pictures != "" {
		if err := os.MkdirAll(*pictures, 0o755); err != nil {
			return err
		}
		t.pics = &pictureWriter{dir: *pictures, errOut: os.Stderr}
	}
	return t.loop(ctx)
}

// textFor loads the locale of a language and the renderer of a game.
func textFor(g engine.Game, lang string) (*locales.Localizer, render.Game, error) {
	bundle, err := locales.Load()
	if err != nil {
		return nil, nil, err
	}
	r, ok := render.For(g.ID())
	if !ok {
		return nil, nil, fmt.Errorf("no renderer for %s", g.ID())
	}
	return bundle.Lang(lang), r, nil
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
	db   *store.DB
	svc  *table.Service
	id   string
	snap *table.Snapshot
}

func openDBDriver(ctx context.Context, path string, su engine.Setup, l *locales.Localizer) (*dbDriver, error) {
	db, err := store.Open(ctx, path)
	if err != nil {
		return nil, err
	}
	svc := table.New(db)
	seats := make([]table.SeatInfo, su.Seats)
	seats[0] = table.SeatInfo{Seat: 0, Kind: table.Human, UserID: "terminal", Name: l.T("ui.you", nil)}
	for s := 1; s < su.Seats; s++ {
		seats[s] = table.SeatInfo{Seat: engine.Seat(s), Kind: table.AI, Bot: "heuristic", Name: l.T("ui.bot", map[string]any{"N": s})}
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

// terminal is a whole game in the terminal: the player at seat 0, AI players
// in the other seats.
type terminal struct {
	game  engine.Game
	r     render.Game
	l     *locales.Localizer
	d     driver
	in    *bufio.Scanner
	out   io.Writer
	names render.Names
	seed  uint64
	pics  *pictureWriter // nil without --pictures
}

const human engine.Seat = 0

func (t *terminal) say(lines ...string) {
	for _, line := range lines {
		fmt.Fprintln(t.out, line)
	}
}

func (t *terminal) loop(ctx context.Context) error {
	bots, _ := t.game.(engine.Bots)
	var ai engine.Player = engine.Random{}
	if bots != nil {
		if p, err := bots.Bot("heuristic"); err == nil {
			ai = p
		}
	}
	t.say(t.l.T("ui.welcome", map[string]any{
		"Game": t.l.T("game."+t.game.ID()+".name", nil), "Players": t.l.N("common.players", len(t.names), nil),
	}))
	if id, ok := t.d.(*dbDriver); ok {
		t.say(fmt.Sprintf("(table %s)", id.id))
	}
	showState := true
	paused := -1 // the step at which the human last passed on optional actions
	for ctx.Err() == nil {
		st := t.d.state()
		if done, _ := st.Result(); done {
			t.say("", t.l.T("ui.final_header", nil))
			t.say(t.r.Public(t.l, st.View(human), t.names)...)
			t.pictures(st)
			return nil
		}
		acting := st.Acting()
		// AI seats act first, so that the human sees what is on the table.
		if other := slices.DeleteFunc(slices.Clone(acting), func(s engine.Seat) bool { return s == human }); len(other) > 0 {
			// Before an AI continues at a moment where it matters, the human
			// may take an optional action (announce a power in advance).
			if opt := t.optional(st, acting); len(opt) > 0 && paused != t.d.steps() {
				paused = t.d.steps()
				t.say("")
				t.say(t.r.Public(t.l, st.View(human), t.names)...)
				t.say(t.r.Private(t.l, st.View(human), t.names)...)
				t.pictures(st)
				a, quit, cont := t.askOptional(st, opt)
				switch {
				case quit:
					t.say(t.l.T("ui.bye", nil))
					return nil
				case a == nil && !cont:
					paused = -1 // ask again
				case a != nil:
					ev, err := t.d.act(ctx, human, a)
					if err != nil {
						t.say(render.Error(t.l, err))
						paused = -1
						continue
					}
					t.events(ev)
				}
				continue
			}
			s := other[0]
			legal := st.Legal(s)
			a := ai.Choose(st.View(s), legal, engine.NewRand(t.seed^0x5eed, t.d.steps()))
			ev, err := t.d.act(ctx, s, a)
			if err != nil {
				return fmt.Errorf("AI seat %d: %w", s, err)
			}
			t.events(ev)
			showState = true
			continue
		}
		if showState {
			t.say("")
			t.say(t.r.Public(t.l, st.View(human), t.names)...)
			t.say(t.r.Private(t.l, st.View(human), t.names)...)
			t.pictures(st)
			showState = false
		}
		legal := st.Legal(human)
		a, quit := t.ask(st, legal)
		if quit {
			t.say(t.l.T("ui.bye", nil))
			return nil
		}
		if a == nil {
			continue
		}
		ev, err := t.d.act(ctx, human, a)
		if err != nil {
			t.say(render.Error(t.l, err))
			continue
		}
		t.events(ev)
		showState = true
	}
	return ctx.Err()
}

// optional lists what the human may do although an AI seat is about to act:
// the human's optional actions (engine.Optional) when the human is not
// acting. They are offered only at a moment where they matter: in Rebel
// Princess, before a trick is led, when an announced power would resolve
// at once. Nil when there is nothing to offer.
func (t *terminal) optional(st engine.State, acting []engine.Seat) []engine.Action {
	if slices.Contains(acting, human) {
		return nil // the human is asked in turn, with all of its actions
	}
	opt := engine.AnyLegal(st, human)
	if len(opt) == 0 {
		return nil
	}
	if v, ok := st.View(human).(*princesses.View); ok {
		if v.Phase != "play" || len(v.Trick) > 0 || slices.Contains(v.Masked, true) {
			return nil
		}
	}
	return opt
}

// askOptional lists "continue" first, then the human's optional actions,
// and reads one: an action, or cont when the human lets the game go on;
// neither means "ask again".
func (t *terminal) askOptional(st engine.State, opt []engine.Action) (a engine.Action, quit, cont bool) {
	t.say(t.l.T("ui.optional.header", nil))
	word := t.l.T("ui.optional.continue", nil)
	t.say(fmt.Sprintf("  %2d. %s   [%s]", 1, word, "continue"))
	return t.read(st, opt, 1, word)
}

// ask lists the legal actions and reads one; nil means "ask again".
func (t *terminal) ask(st engine.State, legal []engine.Action) (engine.Action, bool) {
	if len(legal) <= maxListed {
		t.say(t.l.T("ui.legal_header", nil))
	}
	a, quit, _ := t.read(st, legal, 0, "")
	return a, quit
}

// read lists actions numbered after skip choices already listed, then reads
// an answer: an action, quit, or cont for choice 1 (or "continue", or the
// word given) when skip is 1.
func (t *terminal) read(st engine.State, legal []engine.Action, skip int, word string) (engine.Action, bool, bool) {
	if len(legal) <= maxListed {
		for i, a := range legal {
			label := render.StepLabel(t.r, t.l, st.View(human), t.names, render.Step{Tokens: strings.Fields(a.String()), Whole: true}, t.game.ParseAction)
			t.say(fmt.Sprintf("  %2d. %s   [%s]", skip+i+1, label, a))
		}
	} else {
		t.say(t.r.Hint(t.l, st.View(human)))
	}
	fmt.Fprint(t.out, t.l.T("ui.prompt", nil))
	if !t.in.Scan() {
		return nil, true, false
	}
	text := strings.TrimSpace(t.in.Text())
	switch {
	case text == "":
		return nil, false, false
	case text == "quit" || text == "exit" || text == "q":
		return nil, true, false
	case text == "help" || text == "?":
		t.say(t.l.T("ui.help", nil))
		return nil, false, false
	case skip > 0 && (text == "continue" || text == "c" || strings.EqualFold(text, word)):
		return nil, false, true
	}
	if n, err := strconv.Atoi(text); err == nil {
		if skip > 0 && n == 1 {
			return nil, false, true
		}
		n -= skip
		if n < 1 || n > len(legal) || len(legal) > maxListed {
			t.say(t.l.T("ui.bad_number", map[string]any{"N": n + skip}))
			return nil, false, false
		}
		return legal[n-1], false, false
	}
	a, err := t.game.ParseAction(text)
	if err != nil {
		t.say(render.Error(t.l, err))
		return nil, false, false
	}
	return a, false, false
}

// events prints what the human may see of what happened.
func (t *terminal) events(ev []engine.Event) {
	for _, e := range ev {
		if !e.VisibleTo(human) {
			continue
		}
		if text := t.r.Event(t.l, e, t.names); text != "" {
			t.say("» " + text)
		}
	}
}

// pictures writes the human seat's screen as pictures after a redraw, with
// --pictures.
func (t *terminal) pictures(st engine.State) {
	if t.pics == nil {
		return
	}
	sc, ok := render.ScreenOf(t.game.ID(), t.l, st.View(human), t.names)
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
