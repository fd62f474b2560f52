package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"strings"

	"github.com/stolik-bot/stolik/engine"
	"github.com/stolik-bot/stolik/render"
	"github.com/stolik-bot/stolik/store"
)

// cmdReplay rebuilds a stored table from its log and prints its history and
// final state (public information only).
func cmdReplay(ctx context.Context, args []string, out io.Writer) error {
	fs := flag.NewFlagSet("replay", flag.ContinueOnError)
	fs.SetOutput(out)
	path := fs.String("db", "", "the SQLite file")
	id := fs.String("table", "", "the table id")
	lang := fs.String("lang", "en", "language: en, pl or uk")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if *path == "" || *id == "" {
		return usageError{"replay: --db FILE and --table ID are required"}
	}
	db, err := store.Open(ctx, *path)
	if err != nil {
		return err
	}
	defer db.Close()
	rec, log, err := db.Load(ctx, *id)
	if err != nil {
		return err
	}
	g, err := engine.Lookup(rec.Setup.Game)
	if err != nil {
		return err
	}
	l, r, err := textFor(g, *lang)
	if err != nil {
		return err
	}
	names := make(render.Names, rec.Setup.Seats)
	for _, s := range rec.Seats {
		if s.Seat >= 0 && int(s.Seat) < len(names) {
			names[s.Seat] = s.Name
		}
	}
	for s := range names {
		if names[s] == "" {
			names[s] = fmt.Sprint(s)
		}
	}
	fmt.Fprintln(out, l.T("ui.history_header", map[string]any{
		"ID": rec.ID, "Game": l.T("game."+g.ID()+".name", nil), "Players": l.N("common.players", rec.Setup.Seats, nil),
	}))
	st, err := engine.Start(g, rec.Setup, nil)
	if err != nil {
		return err
	}
	for i, e := range log {
		mv := engine.Move{Seat: e.Seat, Action: e.Action}
		label := e.Action
		if a, err := g.ParseAction(e.Action); err == nil {
			label = render.StepLabel(r, l, st.View(e.Seat), names, render.Step{Tokens: strings.Fields(a.String()), Whole: true}, g.ParseAction)
		}
		ev, err := engine.Step(g, st, rec.Setup.Seed, i, mv, nil)
		if err != nil {
			return &engine.ReplayError{Index: i, Move: mv, Err: err}
		}
		fmt.Fprintln(out, l.T("ui.history_line", map[string]any{"N": i + 1, "Name": names.Of(e.Seat), "Action": label + " [" + e.Action + "]"}))
		for _, x := range ev {
			if x.Audience != engine.Everyone {
				continue
			}
			if text := r.Event(l, x, names); text != "" && x.Type != "card_played" {
				fmt.Fprintln(out, "   » "+text)
			}
		}
	}
	fmt.Fprintln(out, l.T("ui.final_state", nil))
	for _, line := range r.Public(l, st.View(engine.Spectator), names) {
		fmt.Fprintln(out, line)
	}
	return nil
}
