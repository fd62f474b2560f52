package render_test

import (
	"reflect"
	"testing"

	"github.com/stolik-bot/stolik/engine"
	"github.com/stolik-bot/stolik/locales"
	"github.com/stolik-bot/stolik/render"
)

// checkPrivateParts: the private parts of a screen (what a hand message
// shows) are the whole screen's, and the table's parts are left empty.
func checkPrivateParts(t *testing.T, where, game string, l *locales.Localizer, v engine.View, names render.Names, whole render.Screen) {
	t.Helper()
	got, ok := render.ScreenParts(game, render.PrivateParts, l, v, names)
	if !ok {
		t.Fatalf("%s: no screen builder", where)
	}
	want := render.Screen{Game: whole.Game, Viewer: whole.Viewer, Acting: whole.Acting, Result: whole.Result,
		Prompt: whole.Prompt, Hand: whole.Hand, Secret: whole.Secret}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("%s: the private parts differ from the whole screen's:\n%+v\nwant\n%+v", where, got, want)
	}
}
