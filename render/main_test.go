package render_test

// The render package's own tests read every game's presentation.
import _ "github.com/stolik-bot/stolik/games"
