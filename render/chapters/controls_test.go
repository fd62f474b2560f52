package chapters_test

import (
	"strings"
	"testing"

	"github.com/stolik-bot/stolik/engine/chapters"
	"github.com/stolik-bot/stolik/locales"
	"github.com/stolik-bot/stolik/render"
	present "github.com/stolik-bot/stolik/render/chapters"
)

// TestChaptersDescriptionsKeepEveryCondition: the description of every
// card in every language fits an option and is never cut: it holds the
// card's whole abilities (with every condition, "chapter II only"
// included), or, when they cannot fit, says the full text is above, and
// the control's Detail (shown above the menu) then carries it whole.
func TestChaptersDescriptionsKeepEveryCondition(t *testing.T) {
	b := locales.MustLoad()
	ctl := present.Presenter{}
	moved := 0
	for _, lang := range locales.Languages() {
		l := b.Lang(lang)
		for c := chapters.Card(1); c <= chapters.NumCards; c++ {
			v := &chapters.View{Seat: 0, Seats: 3, Phase: "draft", Hand: []chapters.Card{c}}
			ctrl := ctl.Control(l, v, nil, render.Step{Tokens: []string{"pick", c.String()}, Whole: true})
			text := present.ChaptersAbilities(l, &chapters.DefaultCards, c)
			if render.Length(ctrl.Description) > render.MaxOptionText || strings.HasSuffix(ctrl.Description, "…") || ctrl.Description == "" {
				t.Errorf("%s: card %d: description %q", lang, c, ctrl.Description)
			}
			if strings.Contains(ctrl.Description, text) {
				continue
			}
			moved++
			if !strings.Contains(ctrl.Detail, text) {
				t.Errorf("%s: card %d: the description %q leaves out %q, and the detail %q does not carry it", lang, c, ctrl.Description, text, ctrl.Detail)
			}
		}
	}
	if moved == 0 {
		t.Log("every card's abilities fit its description")
	}
}
