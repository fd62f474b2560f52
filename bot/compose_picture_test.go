package bot

import (
	"errors"
	"sync/atomic"
	"testing"

	"github.com/stolik-bot/stolik/render"
)

// TestPictureNotDrawnWhenUnwanted: a picture waiting for a drawing slot is
// drawn only if it is still wanted once a slot is free (a hand whose answer
// was replaced meanwhile is not drawn at all).
func TestPictureNotDrawnWhenUnwanted(t *testing.T) {
	for _, tt := range []struct {
		name      string
		wanted    bool
		wantDraws int64
		wantErr   error
	}{
		{"still wanted", true, 1, nil},
		{"replaced while waiting", false, 0, errUnwanted},
	} {
		t.Run(tt.name, func(t *testing.T) {
			var p pictures
			var draws atomic.Int64
			p.hand = func(render.Screen) ([]byte, string, error) { draws.Add(1); return []byte("png"), "", nil }
			p.init()
			for range cap(p.slot) {
				p.slot <- struct{}{} // every slot busy
			}
			var still atomic.Bool
			still.Store(true)
			done := make(chan error, 1)
			go func() {
				_, err := p.drawJob(&pictureJob{hand: true}, still.Load)
				done <- err
			}()
			still.Store(tt.wanted) // the answer is replaced (or not) while the job waits
			for range cap(p.slot) {
				<-p.slot
			}
			if err := <-done; !errors.Is(err, tt.wantErr) {
				t.Errorf("drawJob: %v, want %v", err, tt.wantErr)
			}
			if n := draws.Load(); n != tt.wantDraws {
				t.Errorf("%d pictures drawn, want %d", n, tt.wantDraws)
			}
			if len(p.slot) != 0 {
				t.Errorf("%d slots left taken", len(p.slot))
			}
		})
	}
}
