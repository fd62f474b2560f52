package main

import (
	"context"
	"errors"
	"flag"
	"io"
	"slices"
	"strings"
	"time"

	"github.com/stolik-bot/stolik/engine"
	"github.com/stolik-bot/stolik/engine/table"
	"github.com/stolik-bot/stolik/locales"
	"github.com/stolik-bot/stolik/render"
	"github.com/stolik-bot/stolik/store/open"
)

// cmdReplay rebuilds a stored table from its log and prints its history
// and its state, as one reader may know them: a spectator by default, the
// seat given with --seat, or everything with --reveal (and always once the
// game is over). A move is told by the events its reader saw, never by its
// notation unless revealed (a move's notation may name a hidden card), and
// no seat is called "you". The table is read from a SQLite file or a
// PostgreSQL database (--db postgres://…, named in messages as
// open.Describe does: never with its password).
func cmdReplay(ctx context.Context, args []string, out io.Writer) error {
	l, err := cliLang(args)
	if err != nil {
		return err
	}
	if helpAsked(args) {
		return showHelp(l, "replay", out)
	}
	fs := flag.NewFlagSet("replay", flag.ContinueOnError)
	path := fs.String("db", "", "the database: a SQLite file or a postgres:// URL")
	id := fs.String("table", "", "the table id")
	fs.String("lang", "", "language: en, pl or uk (read by cliLang); the table's by default")
	seat := fs.Int("seat", -1, "what this seat knew")
	reveal := fs.Bool("reveal", false, "show every card, also of a game not over")
	if err := parseFlags(l, "replay", fs, args); err != nil {
		return err
	}
	if *path == "" {
		return usageError{l.T("cli.replay.need", nil)}
	}
	name := open.Describe(*path)
	db, err := open.OpenReadOnly(ctx, *path)
	if err != nil {
		return dbError(l, name, *id, err)
	}
	defer db.Close()
	if *id == "" {
		return listTables(ctx, l, db, name, out)
	}
	rec, log, err := db.Load(ctx, *id)
	if err != nil {
		return dbError(l, name, *id, err)
	}
	if !setFlags(fs)["lang"] && slices.Contains(locales.Languages(), rec.Lang) {
		l = bundle().Lang(rec.Lang) // the table's own language, unless one is asked for
	}
	g, err := engine.Lookup(rec.Setup.Game)
	if err != nil {
		return errors.New(l.T("cli.db.corrupt", map[string]any{"ID": *id}))
	}
	r, ok := render.For(g.ID())
	if !ok {
		return errors.New(l.T("error.internal", nil))
	}
	reader := engine.Spectator
	if setFlags(fs)["seat"] {
		if *seat < 0 || *seat >= rec.Setup.Seats {
			return usageError{l.T("cli.replay.seat", map[string]any{"Max": rec.Setup.Seats - 1})}
		}
		reader = engine.Seat(*seat)
	}
	moves := make([]engine.Move, len(log))
	for i, e := range log {
		moves[i] = engine.Move{Seat: e.Seat, Action: e.Action}
	}
	rp := replayer{g: g, r: r, l: l, names: replayNames(l, rec), reader: reader, reveal: *reveal}
	lines, err := rp.lines(rec, moves)
	if err != nil {
		return errors.New(l.T("cli.db.corrupt", map[string]any{"ID": *id}))
	}
	for _, line := range lines {
		if _, err := io.WriteString(out, line+"\n"); err != nil {
			return err
		}
	}
	return nil
}

// replayNames are the seats' names as stored, except the terminal's name
// for its player ("Player 0 (you)", in any language) and names left empty:
// a replay calls nobody "you".
func replayNames(l *locales.Localizer, rec table.Record) render.Names {
	names := make(render.Names, rec.Setup.Seats)
	for _, s := range rec.Seats {
		if s.Seat >= 0 && int(s.Seat) < len(names) {
			names[s.Seat] = s.Name
		}
	}
	for s := range names {
		you := false
		for _, lang := range locales.Languages() {
			you = you || names[s] == bundle().Lang(lang).T("ui.you", nil)
		}
		if you || strings.TrimSpace(names[s]) == "" {
			names[s] = l.T("term.player", map[string]any{"N": s})
		}
	}
	return names
}

// replayer writes a table's history for one reader.
type replayer struct {
	g      engine.Game
	r      render.Game
	l      *locales.Localizer
	names  render.Names
	reader engine.Seat // engine.Spectator, or the seat whose knowledge is shown
	reveal bool
}

// lines replays the log and writes the history and the last state.
func (p replayer) lines(rec table.Record, moves []engine.Move) ([]string, error) {
	l := p.l
	end, err := engine.Replay(p.g, rec.Setup, moves)
	if err != nil {
		return nil, err
	}
	over, _ := end.Result()
	if over {
		p.reveal = true
	}
	data := map[string]any{
		"ID": rec.ID, "Game": l.T("game."+p.g.ID()+".name", nil), "Players": l.N("common.players", rec.Setup.Seats, nil),
		"Name": p.names.Of(p.reader),
	}
	key := "term.replay.header_public"
	switch {
	case p.reveal:
		key = "term.replay.header_all"
	case p.reader >= 0:
		key = "term.replay.header_seat"
	}
	out := []string{l.T(key, data)}
	st, err := engine.Start(p.g, rec.Setup, nil)
	if err != nil {
		return nil, err
	}
	for i, mv := range moves {
		ev, err := engine.Step(p.g, st, rec.Setup.Seed, i, mv, nil)
		if err != nil {
			return nil, err
		}
		out = append(out, p.step(i, mv, ev)...)
	}
	return append(out, p.state(st, over)...), nil
}

// step tells one move as the reader saw it: who moved, the events the
// reader saw (another seat's own events marked with its name), and the
// move's notation only when it is revealed or is the reader's own.
func (p replayer) step(i int, mv engine.Move, ev []engine.Event) []string {
	l := p.l
	head := l.T("term.replay.turn", map[string]any{"N": i + 1, "Name": p.names.Of(mv.Seat)})
	if p.reveal || (p.reader >= 0 && mv.Seat == p.reader) {
		head += " [" + mv.Action + "]"
	}
	out := []string{head}
	for _, e := range ev {
		if !p.reveal && !e.VisibleTo(p.reader) {
			continue
		}
		text := p.r.Event(l, e, p.names)
		if text == "" {
			continue
		}
		if e.Audience != engine.Everyone {
			text = l.T("term.replay.private", map[string]any{"Name": p.names.Of(e.Audience), "Text": text})
		}
		out = append(out, "   » "+strings.ReplaceAll(text, "\n", "\n     "))
	}
	if len(out) == 1 {
		out = append(out, "   » "+l.T("term.replay.unseen", nil))
	}
	return out
}

// state is the table at the end of the log as the reader may see it: the
// public table, the reader's own cards, and every seat's when revealed.
func (p replayer) state(st engine.State, over bool) []string {
	l := p.l
	key := "term.replay.now"
	if over {
		key = "ui.final_state"
	}
	out := []string{l.T(key, nil)}
	if sc, ok := render.ScreenOf(p.g.ID(), l, st.View(engine.Spectator), p.names, nil); ok {
		out = append(out, tableLines(l, sc)...)
	}
	var seats []engine.Seat
	switch {
	case over:
	case p.reveal:
		for s := range len(p.names) {
			seats = append(seats, engine.Seat(s))
		}
	case p.reader >= 0:
		seats = []engine.Seat{p.reader}
	}
	for _, s := range seats {
		out = append(out, p.cards(st, s)...)
	}
	return out
}

// cards are one seat's hidden cards: its hand and its secret cards, by
// their names (the screen's own labels speak to the seat in the second
// person).
func (p replayer) cards(st engine.State, s engine.Seat) []string {
	l := p.l
	sc, ok := render.ScreenOf(p.g.ID(), l, st.View(s), p.names, nil)
	if !ok {
		return nil
	}
	var parts []string
	if sc.Hand != nil {
		hand := l.T("term.no_cards", nil)
		if len(sc.Hand.Cards) > 0 {
			cs := make([]render.Card, len(sc.Hand.Cards))
			for i, c := range sc.Hand.Cards {
				c.Mark = false
				cs[i] = c
			}
			hand = cardsText(cs, ", ", true)
		}
		parts = append(parts, hand)
	}
	for _, pl := range sc.Secret {
		var names []string
		for _, c := range pl.Cards {
			if c.Name != "" {
				names = append(names, cardText(render.Card{Name: c.Name, Note: c.Note}, 1))
			}
		}
		if len(names) > 0 {
			parts = append(parts, strings.Join(names, ", "))
		}
	}
	return wrap(l.T("term.replay.cards", map[string]any{"Name": p.names.Of(s)})+" "+strings.Join(parts, " · "), termWidth, "  ")
}

// listTables prints the tables a database holds, newest first, with what
// tells them apart (game, players, status, moves, last change), and how to
// replay one: replay without --table.
func listTables(ctx context.Context, l *locales.Localizer, db open.Backend, name string, out io.Writer) error {
	var ids []string
	open, err := db.OpenTables(ctx)
	if err != nil {
		return dbError(l, name, "", err)
	}
	for _, t := range open {
		ids = append(ids, t.ID)
	}
	ended, err := db.EndedSince(ctx, time.Time{})
	if err != nil {
		return dbError(l, name, "", err)
	}
	ids = append(ids, ended...)
	type listed struct {
		rec   table.Record
		moves int
	}
	var tables []listed
	for _, id := range ids {
		rec, log, err := db.Load(ctx, id)
		if err != nil {
			continue // a table that cannot be read is check's to report
		}
		tables = append(tables, listed{rec, len(log)})
	}
	if len(tables) == 0 {
		_, err := io.WriteString(out, l.T("cli.replay.no_tables", map[string]any{"DB": name})+"\n")
		return err
	}
	slices.SortStableFunc(tables, func(a, b listed) int { return b.rec.UpdatedAt.Compare(a.rec.UpdatedAt) })
	lines := []string{l.T("cli.replay.tables", map[string]any{"DB": name})}
	for _, t := range tables {
		var names []string
		for _, s := range replayNames(l, t.rec) {
			names = append(names, s)
		}
		lines = append(lines, wrap(l.T("cli.replay.table", map[string]any{
			"ID": t.rec.ID, "Game": l.T("game."+t.rec.Setup.Game+".name", nil),
			"Players": strings.Join(names, ", "), "Status": l.T("async.history_status."+string(t.rec.Status), nil),
			"Moves": l.N("cli.replay.moves", t.moves, nil), "When": t.rec.UpdatedAt.Local().Format("2006-01-02 15:04"),
		}), termWidth, "    ")...)
	}
	lines = append(lines, l.T("cli.replay.pick", map[string]any{"DB": name}))
	for _, line := range lines {
		if _, err := io.WriteString(out, line+"\n"); err != nil {
			return err
		}
	}
	return nil
}
