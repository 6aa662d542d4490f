package tui

import (
	"github.com/gdamore/tcell/v2"

	"gridlag/protocol"
)

// playerColors are the colours of other players, indexed by Other.Color-1.
// They are chosen to be told apart from each other and from your own
// avatar (bold yellow) on both dark and light terminals.
var playerColors = [protocol.NumColors]tcell.Color{
	tcell.ColorTomato,
	tcell.ColorLimeGreen,
	tcell.ColorDeepSkyBlue,
	tcell.ColorOrchid,
	tcell.ColorOrange,
	tcell.ColorTurquoise,
	tcell.ColorHotPink,
	tcell.ColorMediumPurple,
}

// PlayerColor returns the colour drawn for a palette index from the server
// (1 to 8). Other values wrap around the palette, so a newer server with a
// larger palette still draws something sensible.
func PlayerColor(index uint8) tcell.Color {
	if index == 0 {
		return tcell.ColorWhite
	}
	return playerColors[(int(index)-1)%len(playerColors)]
}

// The styles of the screen. Backgrounds are left to the terminal's default
// so the interface fits any colour scheme.
var (
	styleText    = tcell.StyleDefault
	styleDim     = tcell.StyleDefault.Foreground(tcell.ColorGray)
	styleHeading = tcell.StyleDefault.Bold(true)
	styleTitle   = tcell.StyleDefault.Reverse(true)
	styleKey     = tcell.StyleDefault.Foreground(tcell.ColorAqua)
	styleWall    = tcell.StyleDefault.Foreground(tcell.ColorGray)
	styleFloor   = tcell.StyleDefault.Foreground(tcell.ColorDimGray)
	styleMe      = tcell.StyleDefault.Foreground(tcell.ColorYellow).Bold(true)
	// styleGhost is you where the server has you: your avatar's colour,
	// darker and not bold, so it reads as a shadow of you, not a wall.
	styleGhost        = tcell.StyleDefault.Foreground(tcell.ColorOlive)
	styleCorrection   = tcell.StyleDefault.Foreground(tcell.ColorRed).Bold(true)
	styleCorrectionBg = tcell.ColorDarkRed
	// styleCorrectionTrail is the way a correction moved the avatar.
	styleCorrectionTrail = tcell.StyleDefault.Foreground(tcell.ColorRed)
	styleWarn            = tcell.StyleDefault.Foreground(tcell.ColorRed).Bold(true)
	styleSliderOn        = tcell.StyleDefault.Foreground(tcell.ColorAqua)
	styleKnob            = tcell.StyleDefault.Foreground(tcell.ColorYellow).Bold(true)
	// styleBeam is a zap's beam: the colour of your avatar, not bold.
	styleBeam = tcell.StyleDefault.Foreground(tcell.ColorYellow)
	// styleHit is a tag the server confirmed; styleFrozen a frozen player.
	styleHit    = tcell.StyleDefault.Foreground(tcell.ColorLime).Bold(true)
	styleFrozen = tcell.StyleDefault.Foreground(tcell.ColorAqua).Bold(true)
	// styleProtectedText says you cannot be tagged yet; a protected
	// player's mark on the board is underlined (see protectedStyle).
	styleProtectedText = tcell.StyleDefault.Foreground(tcell.ColorLime)
	// styleBanner is the winner's banner over the board.
	styleBanner = tcell.StyleDefault.Foreground(tcell.ColorBlack).Background(tcell.ColorYellow).Bold(true)
)
