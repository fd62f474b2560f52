package chapters

// The card table of 3 Chapters (docs/games/chapters.md, "The card table";
// rulebook: seed 003). Every confirmed fact is used exactly; what no
// source gives is completed from the same vocabulary and marked in
// Provisional (value, name, traits or ability). Correcting a card is a change
// to this table only.

func with(c Card) Cond                 { return Cond{Kind: WithCard, Card: c} }
func anyTrait(t Trait) Cond            { return Cond{Kind: AnyTrait, Trait: t} }
func anyOther(t Trait) Cond            { return Cond{Kind: AnyTrait, Trait: t, Other: true} }
func cond(k CondKind) Cond             { return Cond{Kind: k} }
func perTrait(t Trait) Count           { return Count{Kind: CountTrait, Trait: t} }
func perOther(t Trait) Count           { return Count{Kind: CountTrait, Trait: t, Other: true} }
func perValue(lo, hi int) Count        { return Count{Kind: CountValues, Lo: lo, Hi: hi} }
func stars(n int) Tokens               { return Tokens{Stars: n} }
func hearts(n int) Tokens              { return Tokens{Hearts: n} }
func gems(n int) Tokens                { return Tokens{Gems: n} }
func when(cs ...Cond) []Cond           { return cs }
func abilities(a ...Ability) []Ability { return a }

// DefaultCards is the card table the game uses unless a test gives another.
var DefaultCards = Table{
	// 1: confirmed (seed 003: one symbol of every trait; no ability printed).
	1: {Value: 1, Key: "shapeshifter", Traits: AllTraits},
	// 2: structure confirmed ("at least 1 other card with T → hearts"); T = Royal
	// and 2 hearts are our reading.
	2: {Value: 2, Key: "frog-prince", Traits: Of(Animal, Royal), Provisional: GuessTraits | GuessAbility,
		Abilities: abilities(Ability{When: when(anyOther(Royal)), Reward: hearts(2)})},
	// 3, 4, 5: confirmed by seed 003's examples.
	3: {Value: 3, Key: "pinocchio", Traits: Of(Child),
		Abilities: abilities(Ability{When: when(with(26)), Reward: hearts(3)})},
	4: {Value: 4, Key: "jack", Traits: Of(Child),
		Abilities: abilities(Ability{When: when(with(47)), Reward: gems(5)})},
	5: {Value: 5, Key: "goldilocks", Traits: Of(Child),
		Abilities: abilities(Ability{When: when(with(35)), Reward: gems(4)})},
	// 6: two abilities confirmed (with Gretel 7, with the Witch 44); rewards ours.
	6: {Value: 6, Key: "hansel", Traits: Of(Child), Provisional: GuessAbility,
		Abilities: abilities(
			Ability{When: when(with(7)), Reward: hearts(1)},
			Ability{When: when(with(44)), Reward: gems(1)},
		)},
	7: {Value: 7, Key: "gretel", Traits: Of(Child), Provisional: GuessTraits | GuessAbility,
		Abilities: abilities(
			Ability{When: when(with(6)), Reward: hearts(1)},
			Ability{When: when(with(44)), Reward: gems(1)},
		)},
	// 8: "per other card with T" confirmed; T and the reward are ours.
	8: {Value: 8, Key: "alice", Traits: Of(Wonderland), Provisional: GuessTraits | GuessAbility,
		Abilities: abilities(Ability{Per: perOther(Wonderland), Reward: hearts(1)})},
	9: {Value: 9, Key: "tweedledee", Traits: Of(Wonderland), Provisional: GuessValue | GuessTraits | GuessAbility,
		Abilities: abilities(Ability{When: when(with(10)), Reward: hearts(3)})},
	10: {Value: 10, Key: "tweedledum", Traits: Of(Wonderland), Provisional: GuessValue | GuessTraits | GuessAbility,
		Abilities: abilities(Ability{When: when(with(9)), Reward: hearts(3)})},
	// 11: "with the Big Bad Wolf → 4 gems" is confirmed; the value is not.
	11: {Value: 11, Key: "red-riding-hood", Traits: Of(Child), Provisional: GuessValue | GuessTraits,
		Abilities: abilities(Ability{When: when(with(28)), Reward: gems(4)})},
	12: {Value: 12, Key: "white-rabbit", Traits: Of(Wonderland, Animal), Provisional: GuessValue | GuessTraits | GuessAbility,
		Abilities: abilities(Ability{When: when(cond(PlayedLast)), Reward: hearts(2), Seal: 2})},
	// 13, 14, 16: confirmed (seed 003's card notes).
	13: {Value: 13, Key: "greedy-dwarf", Traits: Of(Dwarf),
		Abilities: abilities(
			Ability{Reward: gems(1)},
			Ability{When: when(cond(MostGems)), Reward: stars(1), Seal: 3},
		)},
	14: {Value: 14, Key: "enlightened-dwarf", Traits: Of(Dwarf),
		Abilities: abilities(Ability{When: when(cond(WonNoRound)), Reward: stars(2), Seal: 3})},
	15: {Value: 15, Key: "mystery-dwarf-1", Traits: Of(Dwarf), Provisional: GuessValue | GuessName | GuessAbility,
		Abilities: abilities(Ability{When: when(anyOther(Dwarf)), Reward: hearts(2)})},
	16: {Value: 16, Key: "friendly-dwarfs", Traits: Of(Dwarf),
		Abilities: abilities(Ability{When: when(Cond{Kind: AtLeastHearts, N: 4}), Reward: hearts(4), Seal: 3})},
	17: {Value: 17, Key: "mystery-dwarf-2", Traits: Of(Dwarf), Provisional: GuessValue | GuessName | GuessAbility,
		Abilities: abilities(Ability{Per: perTrait(Royal), Reward: hearts(1)})},
	// 18: "per card with T" confirmed; T = Dwarf and the reward are ours.
	18: {Value: 18, Key: "chief-dwarf", Traits: Of(Dwarf), Provisional: GuessAbility,
		Abilities: abilities(Ability{Per: perTrait(Dwarf), Reward: gems(1)})},
	19: {Value: 19, Key: "humpty-dumpty", Traits: Of(Wonderland), Provisional: GuessValue | GuessTraits | GuessAbility,
		Abilities: abilities(Ability{When: when(anyOther(Royal)), Reward: hearts(2)})},
	20: {Value: 20, Key: "mad-hatter", Traits: Of(Wonderland), Provisional: GuessValue | GuessTraits | GuessAbility,
		Abilities: abilities(Ability{Per: perOther(Wonderland), Reward: gems(1)})},
	// 21: "per other card with T" confirmed; T and the reward are ours.
	21: {Value: 21, Key: "baba-yaga", Traits: Of(Villain, Magic), Provisional: GuessTraits | GuessAbility,
		Abilities: abilities(Ability{Per: perOther(Magic), Reward: gems(1)})},
	22: {Value: 22, Key: "good-fairy", Traits: Of(Magic), Provisional: GuessTraits | GuessAbility,
		Abilities: abilities(Ability{When: when(anyOther(Royal)), Reward: gems(2)})},
	23: {Value: 23, Key: "snow-white", Traits: Of(Royal), Provisional: GuessValue | GuessTraits | GuessAbility,
		Abilities: abilities(Ability{Per: perOther(Dwarf), Reward: hearts(1)})},
	// 24: two abilities confirmed ("per other card with T", "with Good Fairy 22").
	24: {Value: 24, Key: "cinderella", Traits: Of(Royal), Provisional: GuessTraits | GuessAbility,
		Abilities: abilities(
			Ability{Per: perOther(Royal), Reward: hearts(1)},
			Ability{When: when(with(22)), Reward: gems(2)},
		)},
	// 25, 37: confirmed structure (an echo resolved last); token kinds ours.
	25: {Value: 25, Key: "cheshire-cat", Traits: Of(Wonderland, Animal), Provisional: GuessTraits | GuessAbility,
		Abilities: abilities(Ability{Echo: &Echo{From: Heart, To: Gem}, Seal: 2})},
	// 26: ability confirmed by seed 003's example; traits unknown (not Child).
	26: {Value: 26, Key: "geppetto", Provisional: GuessTraits,
		Abilities: abilities(Ability{Per: perValue(1, 9), Reward: hearts(1)})},
	27: {Value: 27, Key: "beauty", Traits: Of(Royal), Provisional: GuessValue | GuessTraits | GuessAbility,
		Abilities: abilities(Ability{When: when(with(33)), Reward: hearts(3)})},
	28: {Value: 28, Key: "big-bad-wolf", Traits: Of(Animal, Villain), Provisional: GuessValue | GuessTraits | GuessAbility,
		Abilities: abilities(Ability{Per: perOther(Child), Reward: gems(1)})},
	// 29: "with the Dragon → 1 star, 1 heart, 1 gem" confirmed; traits ours.
	29: {Value: 29, Key: "princess", Traits: Of(Royal), Provisional: GuessTraits,
		Abilities: abilities(Ability{When: when(with(50)), Reward: Tokens{Stars: 1, Hearts: 1, Gems: 1}})},
	// 30: confirmed by seed 003's examples.
	30: {Value: 30, Key: "peter-pan", Traits: Of(Child),
		Abilities: abilities(Ability{Per: perOther(Child), Reward: hearts(1)})},
	// 31: "1 gem per card with the Magic symbol" confirmed; the value is not.
	31: {Value: 31, Key: "wizard", Traits: Of(Magic), Provisional: GuessValue | GuessTraits,
		Abilities: abilities(Ability{Per: perTrait(Magic), Reward: gems(1)})},
	// 32: "per card with T" confirmed; T and the reward are ours.
	32: {Value: 32, Key: "ogre", Traits: Of(Monster), Provisional: GuessTraits | GuessAbility,
		Abilities: abilities(Ability{Per: perTrait(Child), Reward: gems(1)})},
	33: {Value: 33, Key: "beast", Traits: Of(Animal, Monster), Provisional: GuessValue | GuessTraits | GuessAbility,
		Abilities: abilities(Ability{When: when(with(27)), Reward: hearts(3)})},
	34: {Value: 34, Key: "mystery-1", Traits: Of(Villain, Magic), Provisional: GuessName | GuessTraits | GuessAbility,
		Abilities: abilities(Ability{Per: perOther(Villain), Reward: hearts(1)})},
	// 35: "won the round and Goldilocks played → 3 hearts" confirmed, as the
	// alternative of "won the round → ?" (1 heart is ours).
	35: {Value: 35, Key: "three-bears", Traits: Of(Animal), Provisional: GuessTraits | GuessAbility,
		Abilities: abilities(
			Ability{When: when(cond(WonRound), with(5)), Reward: hearts(3), Seal: 2, Either: 1},
			Ability{When: when(cond(WonRound)), Reward: hearts(1), Seal: 2, Either: 1},
		)},
	36: {Value: 36, Key: "troll", Traits: Of(Monster), Provisional: GuessTraits | GuessAbility,
		Abilities: abilities(Ability{When: when(cond(WonRound)), Reward: gems(2), Seal: 2})},
	37: {Value: 37, Key: "queen-of-hearts", Traits: Of(Wonderland, Royal), Provisional: GuessTraits | GuessAbility,
		Abilities: abilities(Ability{Echo: &Echo{From: Gem, To: Heart}, Seal: 2})},
	38: {Value: 38, Key: "mystery-2", Traits: Of(Monster, Villain), Provisional: GuessName | GuessTraits | GuessAbility,
		Abilities: abilities(Ability{When: when(cond(WonRound)), Reward: gems(2), Seal: 2})},
	39: {Value: 39, Key: "mystery-3", Traits: Of(Magic), Provisional: GuessName | GuessTraits | GuessAbility,
		Abilities: abilities(Ability{When: when(anyOther(Wonderland)), Reward: gems(2)})},
	// 40: confirmed ability (freeze); traits ours.
	40: {Value: 40, Key: "snow-queen", Traits: Of(Royal, Magic), Provisional: GuessTraits,
		Abilities: abilities(Ability{Freeze: true, Seal: 2})},
	41: {Value: 41, Key: "unicorn", Traits: Of(Magic, Animal), Provisional: GuessTraits | GuessAbility,
		Abilities: abilities(Ability{When: when(anyTrait(Royal)), Reward: hearts(2)})},
	// 42: "1 gem when a Monster card was in the trick" (partly confirmed); name ours.
	42: {Value: 42, Key: "prince", Traits: Of(Royal), Provisional: GuessName | GuessTraits | GuessAbility,
		Abilities: abilities(Ability{When: when(anyTrait(Monster)), Reward: gems(1)})},
	43: {Value: 43, Key: "vampire", Traits: Of(Monster, Villain), Provisional: GuessTraits | GuessAbility,
		Abilities: abilities(Ability{When: when(cond(WonRound)), Reward: hearts(2), Seal: 2})},
	// 44: 1 gem per Child card, from a review of the French edition
	// (campustech.fr); traits ours.
	44: {Value: 44, Key: "witch", Traits: Of(Villain, Magic), Provisional: GuessTraits,
		Abilities: abilities(Ability{Per: perOther(Child), Reward: gems(1)})},
	45: {Value: 45, Key: "mystery-4", Traits: Of(Animal, Monster), Provisional: GuessName | GuessTraits | GuessAbility,
		Abilities: abilities(Ability{Per: perOther(Animal), Reward: hearts(1)})},
	46: {Value: 46, Key: "sea-serpent", Traits: Of(Monster, Animal), Provisional: GuessTraits | GuessAbility},
	// 47: "no ability" confirmed; traits ours (not Child).
	47: {Value: 47, Key: "giant", Traits: Of(Monster), Provisional: GuessTraits},
	48: {Value: 48, Key: "mystery-5", Traits: Of(Villain, Monster), Provisional: GuessName | GuessTraits | GuessAbility,
		Abilities: abilities(Ability{When: when(cond(WonRound)), Reward: hearts(1), Seal: 2})},
	49: {Value: 49, Key: "mystery-6", Traits: Of(Magic, Monster), Provisional: GuessName | GuessTraits | GuessAbility,
		Abilities: abilities(Ability{When: when(anyOther(Villain)), Reward: hearts(2)})},
	// 50: value and trait confirmed; no ability is known.
	50: {Value: 50, Key: "dragon", Traits: Of(Monster), Provisional: GuessAbility},
}
