package engine

// Admit makes the checks every game's Apply starts with: a must be one of
// the game's own actions (A), the game must not be over, and seat s must
// be allowed to act now (mayAct says so for the action; a game whose
// waiting seats may take optional actions looks at the action).
func Admit[A Action](a Action, over bool, s Seat, mayAct func(A) bool) (A, error) {
	act, ok := a.(A)
	if !ok {
		var zero A
		return zero, Errorf(CodeUnknownAction, "text", a.String())
	}
	if over {
		return act, Errorf(CodeGameOver)
	}
	if !mayAct(act) {
		return act, Errorf(CodeNotYourTurn, "seat", s)
	}
	return act, nil
}

// Parsed is a game's own parse result as an Action: a failed parse gives a
// nil Action, not the game's zero action wrapped in a non-nil interface.
func Parsed[A Action](a A, err error) (Action, error) {
	if err != nil {
		return nil, err
	}
	return a, nil
}
