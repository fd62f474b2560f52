package picture

import (
	"math"

	"github.com/stolik-bot/stolik/render"

	"golang.org/x/image/vector"
)

// A symbol draws a suit's sign as vector paths into a rasterizer, centred on
// (cx, cy) and s pixels across. Shapes are built in a unit box from -1 to 1.
type symbol func(p pen)

// pen maps the unit box onto the rasterizer.
type pen struct {
	z      *vector.Rasterizer
	cx, cy float32
	h      float32 // half the size
}

func (p pen) x(u float64) float32 { return p.cx + float32(u)*p.h }
func (p pen) y(v float64) float32 { return p.cy + float32(v)*p.h }

func (p pen) move(u, v float64) { p.z.MoveTo(p.x(u), p.y(v)) }
func (p pen) line(u, v float64) { p.z.LineTo(p.x(u), p.y(v)) }
func (p pen) quad(u1, v1, u, v float64) {
	p.z.QuadTo(p.x(u1), p.y(v1), p.x(u), p.y(v))
}
func (p pen) cube(u1, v1, u2, v2, u, v float64) {
	p.z.CubeTo(p.x(u1), p.y(v1), p.x(u2), p.y(v2), p.x(u), p.y(v))
}
func (p pen) close() { p.z.ClosePath() }

// poly is a closed polygon through the points (u0, v0, u1, v1, ...).
func (p pen) poly(pts ...float64) {
	p.move(pts[0], pts[1])
	for i := 2; i+1 < len(pts); i += 2 {
		p.line(pts[i], pts[i+1])
	}
	p.close()
}

// ellipse is a closed ellipse, drawn clockwise.
func (p pen) ellipse(u, v, ru, rv float64) {
	const k = 0.5523
	p.move(u+ru, v)
	p.cube(u+ru, v+k*rv, u+k*ru, v+rv, u, v+rv)
	p.cube(u-k*ru, v+rv, u-ru, v+k*rv, u-ru, v)
	p.cube(u-ru, v-k*rv, u-k*ru, v-rv, u, v-rv)
	p.cube(u+k*ru, v-rv, u+ru, v-k*rv, u+ru, v)
	p.close()
}

func (p pen) circle(u, v, r float64) { p.ellipse(u, v, r, r) }

// rotEllipse is an ellipse turned by a radians, as a polygon.
func (p pen) rotEllipse(u, v, ru, rv, a float64) {
	const n = 24
	s, c := math.Sincos(a)
	for i := 0; i <= n; i++ {
		t := 2 * math.Pi * float64(i) / n
		x, y := ru*math.Cos(t), rv*math.Sin(t)
		px, py := u+x*c-y*s, v+x*s+y*c
		if i == 0 {
			p.move(px, py)
		} else {
			p.line(px, py)
		}
	}
	p.close()
}

// stroke is a straight band of width w from (u0, v0) to (u1, v1).
func (p pen) stroke(u0, v0, u1, v1, w float64) {
	dx, dy := u1-u0, v1-v0
	l := math.Hypot(dx, dy)
	if l == 0 {
		return
	}
	nx, ny := -dy/l*w/2, dx/l*w/2
	p.poly(u0+nx, v0+ny, u1+nx, v1+ny, u1-nx, v1-ny, u0-nx, v0-ny)
}

// starPoly is an n-pointed star with outer radius r and inner radius ri.
func (p pen) starPoly(u, v float64, n int, r, ri, turn float64) {
	for i := 0; i < 2*n; i++ {
		a := turn - math.Pi/2 + math.Pi*float64(i)/float64(n)
		rr := r
		if i%2 == 1 {
			rr = ri
		}
		if i == 0 {
			p.move(u+rr*math.Cos(a), v+rr*math.Sin(a))
		} else {
			p.line(u+rr*math.Cos(a), v+rr*math.Sin(a))
		}
	}
	p.close()
}

var (
	symCircle  symbol = func(p pen) { p.circle(0, 0, 0.8) }
	symDiamond symbol = func(p pen) { p.poly(0, -0.95, 0.7, 0, 0, 0.95, -0.7, 0) }
	symStar    symbol = func(p pen) { p.starPoly(0, 0.08, 5, 0.95, 0.4, 0) }
	symSparkle symbol = func(p pen) {
		p.move(0, -0.95)
		p.quad(0.12, -0.12, 0.95, 0)
		p.quad(0.12, 0.12, 0, 0.95)
		p.quad(-0.12, 0.12, -0.95, 0)
		p.quad(-0.12, -0.12, 0, -0.95)
		p.close()
		p.move(0.62, -0.85)
		p.quad(0.67, -0.67, 0.85, -0.62)
		p.quad(0.67, -0.57, 0.62, -0.39)
		p.quad(0.57, -0.57, 0.39, -0.62)
		p.quad(0.57, -0.67, 0.62, -0.85)
		p.close()
	}
	symCrown symbol = func(p pen) {
		p.poly(-0.85, 0.55, -0.95, -0.45, -0.45, 0.05, 0, -0.6, 0.45, 0.05, 0.95, -0.45, 0.85, 0.55)
		p.poly(-0.85, 0.65, 0.85, 0.65, 0.85, 0.85, -0.85, 0.85)
		p.circle(-0.95, -0.55, 0.14)
		p.circle(0, -0.72, 0.14)
		p.circle(0.95, -0.55, 0.14)
	}
	symHeart symbol = func(p pen) {
		p.move(0, 0.9)
		p.cube(-0.45, 0.5, -1.0, 0.1, -0.95, -0.35)
		p.cube(-0.9, -0.85, -0.25, -1.0, 0, -0.5)
		p.cube(0.25, -1.0, 0.9, -0.85, 0.95, -0.35)
		p.cube(1.0, 0.1, 0.45, 0.5, 0, 0.9)
		p.close()
	}
	symSpade symbol = func(p pen) {
		p.move(0, -0.95)
		p.cube(0.3, -0.55, 1.0, -0.2, 0.9, 0.25)
		p.cube(0.8, 0.7, 0.25, 0.65, 0.08, 0.35)
		p.line(0.3, 0.95)
		p.line(-0.3, 0.95)
		p.line(-0.08, 0.35)
		p.cube(-0.25, 0.65, -0.8, 0.7, -0.9, 0.25)
		p.cube(-1.0, -0.2, -0.3, -0.55, 0, -0.95)
		p.close()
	}
	symClover symbol = func(p pen) {
		p.circle(0, -0.45, 0.38)
		p.circle(-0.45, 0.12, 0.38)
		p.circle(0.45, 0.12, 0.38)
		p.poly(-0.08, 0.1, 0.08, 0.1, 0.2, 0.95, -0.2, 0.95)
	}
	symLeaf symbol = func(p pen) {
		p.move(-0.7, 0.7)
		p.cube(-0.9, -0.2, -0.2, -0.9, 0.85, -0.85)
		p.cube(0.9, 0.2, 0.2, 0.9, -0.7, 0.7)
		p.close()
		p.stroke(-0.9, 0.9, -0.45, 0.45, 0.12)
	}
	symDrop symbol = func(p pen) {
		p.move(0, -0.95)
		p.cube(0.3, -0.5, 0.75, -0.05, 0.7, 0.35)
		p.cube(0.65, 0.8, 0.3, 0.95, 0, 0.95)
		p.cube(-0.3, 0.95, -0.65, 0.8, -0.7, 0.35)
		p.cube(-0.75, -0.05, -0.3, -0.5, 0, -0.95)
		p.close()
	}
	symShield symbol = func(p pen) {
		p.move(-0.8, -0.8)
		p.quad(0, -0.55, 0.8, -0.8)
		p.line(0.8, 0)
		p.cube(0.8, 0.5, 0.4, 0.8, 0, 0.95)
		p.cube(-0.4, 0.8, -0.8, 0.5, -0.8, 0)
		p.close()
	}
	symGem symbol = func(p pen) {
		p.poly(-0.5, -0.7, 0.5, -0.7, 0.95, -0.2, 0, 0.9, -0.95, -0.2)
	}
	symScroll symbol = func(p pen) {
		// A parchment between two rolls, three lines of writing cut out.
		p.poly(-0.62, -0.62, 0.62, -0.62, 0.62, 0.62, -0.62, 0.62)
		for _, v := range []float64{-0.3, 0, 0.3} {
			p.poly(-0.4, v-0.05, -0.4, v+0.05, 0.4, v+0.05, 0.4, v-0.05) // counter-clockwise: a hole
		}
		p.ellipse(0, -0.72, 0.82, 0.17)
		p.ellipse(0, 0.72, 0.82, 0.17)
	}
	symMoon symbol = func(p pen) {
		p.move(0.2, -0.92)
		p.cube(-0.55, -0.85, -0.95, -0.1, -0.7, 0.45)
		p.cube(-0.45, 1.0, 0.45, 1.05, 0.85, 0.45)
		p.cube(0.2, 0.7, -0.3, 0.3, -0.25, -0.2)
		p.cube(-0.2, -0.6, 0.0, -0.85, 0.2, -0.92)
		p.close()
	}
	symSun symbol = func(p pen) {
		p.circle(0, 0, 0.48)
		p.starPoly(0, 0, 12, 0.95, 0.55, 0)
	}
	symSpikes symbol = func(p pen) { p.starPoly(0, 0, 9, 0.95, 0.5, 0.1) }
	symPaw    symbol = func(p pen) {
		p.ellipse(0, 0.4, 0.5, 0.42)
		p.rotEllipse(-0.72, -0.12, 0.2, 0.27, -0.35)
		p.rotEllipse(-0.28, -0.55, 0.2, 0.28, -0.1)
		p.rotEllipse(0.28, -0.55, 0.2, 0.28, 0.1)
		p.rotEllipse(0.72, -0.12, 0.2, 0.27, 0.35)
	}
	symHat symbol = func(p pen) {
		p.poly(-0.1, -0.95, 0.55, 0.5, -0.55, 0.5)
		p.ellipse(0, 0.6, 0.92, 0.22)
		p.circle(-0.1, -0.95, 0.14)
	}
	symFish symbol = func(p pen) {
		p.move(0.95, 0)
		p.cube(0.6, -0.6, -0.1, -0.65, -0.5, 0)
		p.cube(-0.1, 0.65, 0.6, 0.6, 0.95, 0)
		p.close()
		p.poly(-0.4, 0, -0.95, -0.5, -0.8, 0, -0.95, 0.5)
	}
	symBird symbol = func(p pen) {
		// A songbird facing right: body, head, beak, tail.
		p.rotEllipse(-0.05, 0.15, 0.55, 0.38, -0.25)
		p.circle(0.45, -0.3, 0.28)
		p.poly(0.68, -0.38, 0.98, -0.28, 0.68, -0.2)
		p.poly(-0.45, 0.2, -0.98, -0.05, -0.9, 0.45)
		p.poly(-0.1, 0.45, 0.0, 0.9, 0.08, 0.9, 0.05, 0.45)
		p.poly(0.15, 0.45, 0.25, 0.9, 0.33, 0.9, 0.25, 0.45)
	}
	symButterfly symbol = func(p pen) {
		p.rotEllipse(-0.45, -0.35, 0.45, 0.32, -0.6)
		p.rotEllipse(0.45, -0.35, 0.45, 0.32, 0.6)
		p.rotEllipse(-0.35, 0.42, 0.3, 0.22, 0.5)
		p.rotEllipse(0.35, 0.42, 0.3, 0.22, -0.5)
		p.ellipse(0, 0.05, 0.1, 0.6)
		p.stroke(-0.05, -0.5, -0.3, -0.95, 0.07)
		p.stroke(0.05, -0.5, 0.3, -0.95, 0.07)
	}
	symToad symbol = func(p pen) {
		p.ellipse(0, 0.25, 0.9, 0.55)
		p.circle(-0.45, -0.3, 0.25)
		p.circle(0.45, -0.3, 0.25)
		p.ellipse(-0.8, 0.72, 0.22, 0.12)
		p.ellipse(0.8, 0.72, 0.22, 0.12)
	}
	symHare symbol = func(p pen) {
		p.ellipse(0, 0.45, 0.55, 0.45)
		p.rotEllipse(-0.28, -0.4, 0.17, 0.55, -0.2)
		p.rotEllipse(0.28, -0.4, 0.17, 0.55, 0.2)
	}
	symStag symbol = func(p pen) {
		// A head with antlers.
		p.move(-0.3, 0.05)
		p.line(0.3, 0.05)
		p.line(0.12, 0.95)
		p.line(-0.12, 0.95)
		p.close()
		p.rotEllipse(-0.45, 0.15, 0.22, 0.1, 0.4)
		p.rotEllipse(0.45, 0.15, 0.22, 0.1, -0.4)
		w := 0.13
		p.stroke(-0.15, 0.05, -0.55, -0.9, w)
		p.stroke(-0.33, -0.42, -0.9, -0.6, w)
		p.stroke(-0.45, -0.66, -0.2, -0.95, w)
		p.stroke(0.15, 0.05, 0.55, -0.9, w)
		p.stroke(0.33, -0.42, 0.9, -0.6, w)
		p.stroke(0.45, -0.66, 0.2, -0.95, w)
	}
	symTower symbol = func(p pen) {
		p.poly(-0.6, 0.95, -0.5, -0.4, 0.5, -0.4, 0.6, 0.95)
		p.poly(-0.7, -0.4, -0.7, -0.9, -0.42, -0.9, -0.42, -0.65, -0.14, -0.65, -0.14, -0.9,
			0.14, -0.9, 0.14, -0.65, 0.42, -0.65, 0.42, -0.9, 0.7, -0.9, 0.7, -0.4)
	}
)

var (
	// symPlay marks a seat that must act.
	symPlay symbol = func(p pen) { p.poly(-0.6, -0.85, 0.85, 0, -0.6, 0.85) }
	// symPerson marks the viewer's own seat.
	symPerson symbol = func(p pen) {
		p.circle(0, -0.45, 0.4)
		p.move(-0.85, 0.95)
		p.cube(-0.85, 0.2, -0.4, 0.02, 0, 0.02)
		p.cube(0.4, 0.02, 0.85, 0.2, 0.85, 0.95)
		p.close()
	}
)

// symbols are the suit symbols a game's design may name.
var symbols = map[render.Symbol]symbol{
	render.SymCircle:    symCircle,
	render.SymDiamond:   symDiamond,
	render.SymStar:      symStar,
	render.SymSparkle:   symSparkle,
	render.SymCrown:     symCrown,
	render.SymHeart:     symHeart,
	render.SymSpade:     symSpade,
	render.SymClover:    symClover,
	render.SymLeaf:      symLeaf,
	render.SymDrop:      symDrop,
	render.SymShield:    symShield,
	render.SymGem:       symGem,
	render.SymScroll:    symScroll,
	render.SymMoon:      symMoon,
	render.SymSun:       symSun,
	render.SymSpikes:    symSpikes,
	render.SymPaw:       symPaw,
	render.SymHat:       symHat,
	render.SymFish:      symFish,
	render.SymBird:      symBird,
	render.SymButterfly: symButterfly,
	render.SymToad:      symToad,
	render.SymHare:      symHare,
	render.SymStag:      symStag,
}
