// Package games is the list of Stolik's games: the one place that names
// them. Importing it registers every game's engine (engine.Register, from
// engine/<game>) and presentation (render.Register, from render/<game>,
// which imports its engine). A program or a test that plays games imports
// it; nothing else lists the games.
package games

import (
	_ "github.com/stolik-bot/stolik/render/chapters"
	_ "github.com/stolik-bot/stolik/render/courtiers"
	_ "github.com/stolik-bot/stolik/render/lynx"
	_ "github.com/stolik-bot/stolik/render/princesses"
)
