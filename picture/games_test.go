package picture

// The tests play every game.
import _ "github.com/stolik-bot/stolik/games"
