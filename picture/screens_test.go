package picture

import (
	"strconv"
	"strings"

	"github.com/stolik-bot/stolik/engine"
	"github.com/stolik-bot/stolik/render"
)

// Screens built by hand as the games' screen builders make them: long names
// (32 characters), Polish and Ukrainian words.

// name32 pads or cuts a name to exactly 32 characters, at a space.
func name32(s string) string {
	r := []rune(s)
	for len(r) < 32 {
		r = append(r, 'ź')
	}
	r = r[:32]
	for r[31] == ' ' {
		r = append(r[:31], 'ż')
	}
	return string(r)
}

var plNames = []string{
	name32("Grzegorz Brzęczyszczykiewicz z Łodzi"),
	name32("Małgorzata Źdźbło-Pszczółkowska"),
	name32("Bot 1 — Żółwiowa Księżniczka Ćma"),
	name32("Jędrzej Śliwiński herbu Nałęcz Ó"),
	name32("Bot 2 — Łabędzia Królowa Zimowa"),
	name32("Agnieszka Chrząszczewska-Ęąłóńć"),
}

var ukNames = []string{
	name32("Олександра Ґудзь-Підгорецька з Їжакова"),
	name32("Євгенія Ярославівна Щербатюк-Їх"),
	name32("Бот 1 — Мудрий Рись із Карпат ʼ"),
	name32("Ігор Ґалаґан-Єрмолаєнко Їжаківс"),
	name32("Бот 2 — Віртуальний гравець Ґ"),
	name32("Світлана Приходько-Ґудзовська Ї"),
}

func seats(names []string, n int, acting, you int, counts func(int) []string, piles func(int) []render.Pile) []render.SeatPart {
	var out []render.SeatPart
	for s := 0; s < n; s++ {
		sp := render.SeatPart{Seat: engine.Seat(s), Name: names[s], You: s == you, Acting: s == acting, Counts: counts(s)}
		if piles != nil {
			sp.Piles = piles(s)
		}
		var texts []string
		for _, p := range sp.Piles {
			texts = append(texts, p.Line())
		}
		sp.Line = sp.Name + ": " + strings.Join(append(append([]string{}, sp.Counts...), texts...), ", ")
		out = append(out, sp)
	}
	return out
}

func pc(s string, v int, mark bool) render.Card {
	words := map[string]string{"Q": "Królowa", "F": "Wróżka", "A": "Zwierzę", "P": "Książę"}
	return render.Card{Suit: s, Value: strconv.Itoa(v), Name: words[s] + " " + strconv.Itoa(v), Code: s + strconv.Itoa(v), Mark: mark}
}

func cardsText(cs []render.Card) string {
	var out []string
	for _, c := range cs {
		if c.Down {
			out = append(out, "karta zakryta")
			continue
		}
		out = append(out, c.Name)
	}
	return strings.Join(out, " · ")
}

// princessesScreen: Rebel Princess, 6 seats, in Polish, in the middle of a
// trick.
func princessesScreen() render.Screen {
	trick := []render.Card{pc("Q", 7, false), pc("F", 3, false), pc("P", 11, false), {Suit: "A", Value: "8", Name: "Żaba", Code: "A8"}}
	hand := []render.Card{pc("Q", 2, true), pc("Q", 9, true), pc("Q", 12, true), pc("F", 1, false), pc("F", 10, false),
		pc("A", 4, false), pc("A", 6, false), pc("P", 5, false)}
	return render.Screen{
		Game:   "princesses",
		Acting: []engine.Seat{0},
		Viewer: 0,
		Prompt: "Zagraj kartę do lewy: musisz dołożyć do koloru Królowe.",
		Hand:   &render.Pile{Label: "Twoja ręka", Text: cardsText(hand), Cards: hand},
		Secret: []render.Pile{{Label: "Twoja księżniczka", Text: "Królewna Śnieżka — Siedmiu krasnoludków",
			Cards: []render.Card{{Suit: "princess", Name: "Królewna Śnieżka", Note: "Siedmiu krasnoludków"}}}},
		Title: "Runda 2 z 5 · lewa 4 z 10",
		Rule: &render.Rule{Name: "Magiczna fasola", Short: "Każdy gra tylko najwyższą lub najniższą ze swoich kart w kolorze wiodącym.",
			Full: "Każdy z graczy (w tym osoba rozpoczynająca) może zagrać tylko najwyższą lub najniższą ze swoich kart w kolorze wiodącym."},
		Center: []render.Pile{
			{Label: "Lewa", Text: cardsText(trick), Cards: trick, Group: "trick"},
			{Label: "Karta rundy", Text: "Magiczna fasola", Cards: []render.Card{{Suit: "round", Name: "Magiczna fasola"}}, Group: "trick"},
		},
		Seats: seats(plNames, 6, 0, 0, func(s int) []string {
			return []string{strconv.Itoa(s%3) + " lewy", strconv.Itoa(8-s%2) + " kart na ręce", strconv.Itoa(s*2) + " oświadczyny"}
		}, func(s int) []render.Pile {
			switch s {
			case 2:
				return []render.Pile{{Label: "Księżniczka", Text: "Kopciuszek", Cards: []render.Card{{Suit: "princess", Name: "Kopciuszek"}}},
					{Label: "Lewy", Text: "2 lewy", Count: 2}}
			case 4:
				return []render.Pile{{Label: "Zakryta karta", Text: "karta zakryta", Cards: []render.Card{{Down: true, Name: "Wróżka 12", Suit: "F", Value: "12"}}}}
			}
			if s%2 == 1 {
				return []render.Pile{{Label: "Lewy", Text: strconv.Itoa(s) + " lewy", Count: s}}
			}
			return nil
		}),
		Status: []string{"Przekazywanie kart: po 1 karcie osobom z lewej i prawej strony."},
	}
}

// princessesEnd: the same game over, with the standings and the chart.
func princessesEnd() render.Screen {
	sc := princessesScreen()
	sc.Acting = nil
	sc.Prompt = ""
	sc.Hand = nil
	sc.Secret = nil
	sc.Title = "Koniec gry · runda 5 z 5"
	sc.Center = nil
	sc.Result = []string{
		"Wygrywa " + plNames[3] + " z 4 oświadczynami.",
		"2. " + plNames[0] + " — 7 oświadczyn", "3. " + plNames[5] + " — 9 oświadczyn",
		"4. " + plNames[1] + " — 12 oświadczyn", "5. " + plNames[2] + " — 15 oświadczyn", "6. " + plNames[4] + " — 21 oświadczyn",
	}
	sc.Chart = &render.Chart{Title: "Oświadczyny po każdej rundzie", Names: plNames,
		Rounds: [][]int{{2, 1, 4, 0, 5, 3}, {3, 4, 6, 1, 9, 5}, {5, 7, 9, 2, 12, 6}, {6, 10, 12, 3, 17, 8}, {7, 12, 15, 4, 21, 9}}}
	for i := range sc.Seats {
		sc.Seats[i].Acting = false
	}
	return sc
}

func lc(v string, mark bool) render.Card {
	return render.Card{Suit: v, Value: v, Code: v, Mark: mark}
}

// lynxScreen: Lynx, 5 seats, in Ukrainian.
func lynxScreen() render.Screen {
	hand := []render.Card{lc("2", false), lc("4", true), lc("4", true), lc("7", false), lc("9", true), lc("11", false), lc("13", true), lc("X", true), lc("X", false)}
	return render.Screen{
		Game:   "lynx",
		Acting: []engine.Seat{2},
		Viewer: 0,
		Hand:   &render.Pile{Label: "Ваша рука", Text: "2, 4×2, 7, 9, 11, 13, X×2", Cards: hand},
		Title:  "Просунутий режим · хід гравця " + ukNames[2],
		Center: []render.Pile{
			{Label: "Колода", Text: "колода: 41", Count: 41, Group: "deck"},
			{Label: "Скид", Text: "скид: 5, 5, 12", Cards: []render.Card{lc("5", false), lc("5", false), lc("12", false)}, Group: "deck"},
			{Label: "Викладка", Text: "Викладка: 3, 8, X, 10, 6, 1", Cards: []render.Card{lc("3", false), lc("8", false), lc("X", false), lc("10", false), lc("6", false), lc("1", false)}, Group: "pool"},
		},
		Seats: seats(ukNames, 5, 2, 0, func(s int) []string {
			return []string{"у руці: " + strconv.Itoa(9-s) + " карт", "очки: " + strconv.Itoa(s*3)}
		}, func(s int) []render.Pile {
			switch s {
			case 0:
				return []render.Pile{{Label: "Верхній шар", Text: "6×3", Cards: []render.Card{lc("6", false), lc("6", false), lc("6", false)}},
					{Label: "Нижче", Text: "2×2", Cards: []render.Card{lc("2", false), lc("2", false)}}}
			case 1:
				return []render.Pile{{Label: "Верхній шар", Text: "11×4, X", Cards: []render.Card{lc("11", false), lc("11", false), lc("11", false), lc("11", false), lc("X", false)}}}
			case 3:
				return []render.Pile{{Label: "Верхній шар", Text: "1×2", Cards: []render.Card{lc("1", false), lc("1", false)}},
					{Label: "Нижче", Text: "8, 9×3", Cards: []render.Card{lc("8", false), lc("9", false), lc("9", false), lc("9", false)}}}
			}
			return nil
		}),
		Status: []string{"Просунутий режим: одиниці крадуть найвищий шар."},
	}
}

func chc(v int, key, name, trait, note string, mark bool) render.Card {
	return render.Card{Suit: trait, Value: strconv.Itoa(v), Name: name, Note: note, Code: strconv.Itoa(v), Mark: mark}
}

// chaptersScreen: 3 Chapters, 6 seats, in Polish.
func chaptersScreen() render.Screen {
	hand := []render.Card{
		chc(2, "frog-prince", "Żabi Książę", "animal+royal", "zwierzę, korona", true),
		chc(11, "red-riding-hood", "Czerwony Kapturek", "child", "dziecko", true),
		chc(14, "enlightened-dwarf", "Oświecony krasnolud", "dwarf", "krasnolud", false),
		chc(21, "baba-yaga", "Baba Jaga", "villain+magic", "złoczyńca, magia", true),
		chc(36, "queen-of-hearts", "Królowa Kier", "wonderland+royal+villain", "Kraina Czarów", false),
		chc(48, "sea-serpent", "Wąż morski", "monster", "potwór", true),
	}
	played := []render.Card{
		chc(19, "", "Humpty Dumpty", "wonderland", "Kraina Czarów", false),
		chc(33, "", "Trzy niedźwiadki", "animal", "zwierzę", false),
		{Down: true}, {Down: true}, {Down: true}, {Down: true},
	}
	return render.Screen{
		Game:   "chapters",
		Acting: []engine.Seat{0, 2, 3, 4, 5},
		Viewer: 0,
		Prompt: "Wybierz kartę na tę rundę (zagrane karty odkryje się razem).",
		Hand:   &render.Pile{Label: "Twoja ręka", Text: cardsText(hand), Cards: hand},
		Title:  "Rozdział II · runda 3 z 5",
		Center: []render.Pile{{Label: "Karty tej rundy", Text: "Humpty Dumpty, Trzy niedźwiadki, 4 karty zakryte", Cards: played, Group: "round"}},
		Seats: seats(plNames, 6, -1, 0, func(s int) []string {
			return []string{strconv.Itoa(s*4+3) + " gwiazdek", strconv.Itoa(s%4) + " serca", strconv.Itoa(s%3) + " klejnoty"}
		}, func(s int) []render.Pile {
			if s%3 == 2 {
				return nil
			}
			return []render.Pile{{Label: "Zagrane", Text: "Alicja, Piotruś Pan, Smok",
				Cards: []render.Card{chc(8, "", "Alicja", "wonderland", "", false), chc(29, "", "Piotruś Pan", "child", "", false), chc(50, "", "Smok", "monster", "", false)}}}
		}),
	}
}

func cc(family, role, name string) render.Card {
	return render.Card{Suit: family, Name: name, Note: role, Code: family}
}

// courtiersScreen: Courtisans, 5 seats, in Ukrainian.
func courtiersScreen() render.Screen {
	fams := []struct{ id, label string }{{"butterfly", "Метелики"}, {"toad", "Ропухи"}, {"nightingale", "Солов’ї"}, {"hare", "Зайці"}, {"stag", "Олені"}, {"carp", "Коропи"}}
	var centre []render.Pile
	for i, f := range fams {
		var up, down []render.Card
		for k := 0; k < (i*3)%5; k++ {
			up = append(up, cc(f.id, "придворний", "придворний"))
		}
		if i%2 == 0 {
			up = append(up, cc(f.id, "вельможа", "вельможа"))
		}
		for k := 0; k < (i+1)%4; k++ {
			down = append(down, cc(f.id, "вартовий", "вартовий"))
		}
		centre = append(centre,
			render.Pile{Label: f.label, Text: f.label + " над столом: " + strconv.Itoa(len(up)), Cards: up, Group: "up"},
			render.Pile{Label: f.label, Text: f.label + " під столом: " + strconv.Itoa(len(down)), Cards: down, Group: "down"})
	}
	hand := []render.Card{cc("hare", "вельможа", "Заєць (вельможа)"), cc("carp", "убивця", "Короп (убивця)"), cc("stag", "", "Олень"), {Down: true, Suit: "toad", Name: "Ропуха (шпигун)"}}
	hand[0].Mark, hand[1].Mark, hand[2].Mark = true, true, true
	return render.Screen{
		Game:   "courtiers",
		Acting: []engine.Seat{1},
		Viewer: 1,
		Prompt: "Покладіть карту за стіл Королеви, у свої володіння або у володіння суперника.",
		Hand:   &render.Pile{Label: "Ваша рука", Text: "Заєць (вельможа), Короп (убивця), Олень, шпигун", Cards: hand},
		Secret: []render.Pile{{Label: "Ваші завдання", Text: "Менше: Метелики; Більше: Олені",
			Cards: []render.Card{{Suit: "mission", Name: "Менше: Метелики"}, {Suit: "mission", Name: "Більше: Олені"}}}},
		Title:  "Хід гравця " + ukNames[1] + " · колода: 38",
		Center: centre,
		Seats: seats(ukNames, 5, 1, 1, func(s int) []string {
			return []string{"у руці: 3", "очки: " + strconv.Itoa(s)}
		}, func(s int) []render.Pile {
			var ps []render.Pile
			for i, f := range fams {
				n := (s + i) % 3
				if n == 0 {
					continue
				}
				var cs []render.Card
				for k := 0; k < n; k++ {
					cs = append(cs, cc(f.id, "", f.label))
				}
				ps = append(ps, render.Pile{Label: f.label, Text: f.label + ": " + strconv.Itoa(n), Cards: cs})
			}
			if s == 3 {
				ps = append(ps, render.Pile{Label: "Шпигуни", Text: "шпигуни: 1", Cards: []render.Card{{Down: true}}})
			}
			return ps
		}),
	}
}

// samples are the hand-built screens by name.
func samples() map[string]render.Screen {
	return map[string]render.Screen{
		"princesses":     princessesScreen(),
		"princesses-end": princessesEnd(),
		"lynx":           lynxScreen(),
		"chapters":       chaptersScreen(),
		"courtiers":      courtiersScreen(),
	}
}
