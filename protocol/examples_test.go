package protocol_test

import (
	"testing"

	"gridlag/grid"
	"gridlag/protocol"
)

// example is one fixed message of each type, the content of the golden files.
type example struct {
	file string // the golden file's name under testdata/golden
	msg  protocol.Message
}

// smallCells is a 5x3 map: a ring of wall around three floor cells. The
// golden Welcome uses it rather than the default map so that editing the
// default map never changes the wire bytes pinned here.
var smallCells = []byte("#####" + "#...#" + "#####")

// examples returns fresh copies of one message of every type, in type order.
// Every field holds a value other than its zero value where the type allows,
// and multi-byte integers use distinct bytes, so that a field encoded in the
// wrong order or at the wrong width shows in the golden bytes.
func examples() []example {
	return []example{
		{"hello.bin", &protocol.Hello{Version: protocol.Version, Name: "Ada ☺", Bot: true, Color: 3}},
		{"welcome.bin", &protocol.Welcome{
			Player: 0x0102, UpdateRate: 20, MoveTimeMS: 100, Burst: 4,
			MapWidth: 5, MapHeight: 3, Cells: append([]byte(nil), smallCells...),
			Players: []protocol.PlayerInfo{{ID: 1, Color: 2, Name: "bot-1"}, {ID: 0x0102, Color: 5, Name: "grace"}},
			Token:   protocol.Token{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16},
			ResumeS: 0x0102,
		}},
		{"error.bin", &protocol.Error{Code: protocol.ErrCodeVersion, Text: "protocol version 2 is not 1"}},
		{"input.bin", &protocol.Input{Seq: 0x01020304, Dir: grid.Right}},
		{"state.bin", &protocol.State{
			Tick: 0x01020304, TimeNS: 0x0102030405060708, Ack: 0x0a0b0c0d,
			Players: []grid.PlayerPos{{ID: 1, Pos: grid.Pos{X: 10, Y: 10}}, {ID: 0x0102, Pos: grid.Pos{X: 0x0304, Y: 65535}}},
			Gone:    []grid.PlayerID{0x0506},
			Left:    []grid.PlayerID{0x0708, 3},
		}},
		{"ping.bin", &protocol.Ping{Stamp: 0x0102030405060708}},
		{"pong.bin", &protocol.Pong{Stamp: 0x0807060504030201}},
		{"bye.bin", &protocol.Bye{Reason: "quit"}},
		{"join.bin", &protocol.Join{Player: protocol.PlayerInfo{ID: 4, Color: 1, Name: "grace"}}},
		{"leave.bin", &protocol.Leave{ID: 0x0405}},
		{"spectate.bin", &protocol.Spectate{Version: protocol.Version, Name: "teacher ☺"}},
		{"spectating.bin", &protocol.Spectating{
			UpdateRate: 0x0102, MoveTimeMS: 0x0304, Burst: 5,
			MapWidth: 5, MapHeight: 3, Cells: append([]byte(nil), smallCells...),
		}},
		{"overview.bin", &protocol.Overview{
			Tick: 0x01020304, TimeNS: 0x0102030405060708, Total: 3,
			Players: []protocol.OverviewPlayer{
				{ID: 1, Bot: true, Pos: grid.Pos{X: 10, Y: 11}, Ack: 0x0a0b0c0d, RTTMS: 0x0e0f},
				{ID: 0x0102, Pos: grid.Pos{X: 0x0304, Y: 65535}, Ack: 7, RTTMS: protocol.NoRTT},
			},
		}},
		{"notice.bin", &protocol.Notice{Text: "server restarting in 10 s"}},
		{"zap.bin", &protocol.Zap{Seq: 0x01020304, RenderNS: 0x0102030405060708}},
		{"zapresult.bin", &protocol.ZapResult{
			Seq: 0x01020304, Outcome: protocol.ZapHit, Target: 0x0506, RewindMS: 0x0708,
			From: grid.Pos{X: 0x090a, Y: 0x0b0c}, Dir: grid.Left, Len: 7,
		}},
		{"tagged.bin", &protocol.Tagged{By: 0x0102, Seen: grid.Pos{X: 0x0304, Y: 0x0506}, AgoMS: 0x0708, FrozenMS: 0x090a}},
		{"scores.bin", &protocol.Scores{
			Round: 0x0102, LeftMS: 0x03040506, Winner: 0x0708, WinnerPoints: 0x090a,
			Players: []protocol.ScoreEntry{{ID: 1, Bot: true, Points: 0x0b0c}, {ID: 0x0708, Frozen: true, Points: 0x090a}},
		}},
		{"mapchunk.bin", &protocol.MapChunk{Width: 5, Y: 0x0102, Cells: []byte("#####" + "#..##")}},
		{"resume.bin", &protocol.Resume{Version: protocol.Version, Token: protocol.Token{0xf0, 0xe1, 0xd2, 0xc3, 0xb4, 0xa5, 0x96, 0x87, 0x78, 0x69, 0x5a, 0x4b, 0x3c, 0x2d, 0x1e, 0x0f}}},
		{"listrooms.bin", &protocol.ListRooms{Version: protocol.Version}},
		{"rooms.bin", &protocol.Rooms{MaxRooms: 0x0102, Rooms: []protocol.RoomInfo{
			{Players: 3, MaxPlayers: 256, Round: 2, LeftMS: 0x01020304},
			{Name: "café", Players: 0x0304, MaxPlayers: 0x0506, Spectators: 0x0708, Round: 0x090a, LeftMS: 0x0b0c0d0e},
		}}},
		{"mapbits.bin", &protocol.MapBits{Width: 0x0102, Height: 0x0103, Total: 0x0203, Offset: 0x0102, Data: []byte{0x78, 0x9c, 0x05, 0x06, 0x07}}},
		{"protect.bin", &protocol.Protect{ID: 0x0102, UntilNS: 0x0304050607080910}},
		{"ranking.bin", &protocol.Ranking{
			Round: 0x0102, LeftMS: 0x03040506, Online: 0x0708, Rank: 0x090a,
			Winner: 0x0b0c, WinnerPoints: 0x0d0e, WinnerName: "日本語",
			Players: []protocol.RankEntry{
				{ID: 0x0b0c, Bot: true, Points: 0x0f10, Named: true, Color: 3, Name: "bot-1"},
				{ID: 0x0708, Frozen: true, Points: 0x0102},
				{ID: 0x1112, Bot: true, Frozen: true, Points: 1, Named: true, Color: 8, Name: "grace 🎉"},
			},
		}},
		{"teach.bin", &protocol.Teach{Version: protocol.Version, Name: "Ms Hopper", Room: "lecture"}},
		{"conditions.bin", &protocol.Conditions{
			Teachers: 2, LatencyMS: 0x0102, JitterMS: 0x0304, LossBP: 0x0506,
			Predict: protocol.HoldOff, Reconcile: protocol.HoldOn, Interpolate: protocol.HoldOff, Rate: 0x0708, LagComp: true,
		}},
		{"conditions-v6.bin", &protocol.Conditions{
			Teachers: 1, LatencyMS: 0x0102, JitterMS: 0x0304, LossBP: 0x0506,
			Predict: protocol.HoldOn, Rate: 0x0708, LagComp: true, Trace: "lte-handover", Step: "handover, other band",
		}},
		{"report.bin", &protocol.Report{Pending: 0x0102, Corrections: 0x03040506, RTTMS: 0x0708}},
		{"class.bin", &protocol.Class{Students: []protocol.Student{
			{ID: 0x0102, RTTMS: 0x0304, Pending: 0x0506, Corrections: 0x0708090a},
			{ID: 3, RTTMS: protocol.NoRTT, Pending: 0, Corrections: 1},
		}}},
		{"trace.bin", &protocol.Trace{On: true}},
		{"stages.bin", &protocol.Stages{Inputs: []protocol.InputStage{
			{Seq: 0x01020304, Outcome: protocol.StageMoved, BeforeUS: 0x0506, ApplyUS: 0x0102},
			{Seq: 0x01020305, Outcome: protocol.StagePlayer, BeforeUS: 0x07, ApplyUS: 0},
			{Seq: 0x01020405, Outcome: protocol.StageCooldown, BeforeUS: 0x01020304, ApplyUS: 0x01020304},
		}}},
		{"perceive.bin", &protocol.Perceive{Action: protocol.PerceiveStart, Predict: 3, Repeats: 2, Controls: 4,
			PlayMS: 0x0102, AnswerMS: 0x0304, LevelsMS: []uint16{0, 0x0506, 0x0708}}},
		{"trial.bin", &protocol.Trial{Run: 0x0102, Round: 0, Rounds: 0x0304, Phase: protocol.TrialOver, LeftMS: 0x0506, Predict: true,
			Results: []protocol.TrialResult{{RTTMS: 0x0708, Predict: true, Answer: protocol.Laggy}, {RTTMS: 0, Predict: false, Answer: protocol.NoVerdict}}}},
		{"answer.bin", &protocol.Answer{Run: 0x0102, Round: 0x0304, Verdict: protocol.Laggy}},
		{"perception.bin", &protocol.Perception{Run: 0x0102, Round: 0x0304, Rounds: 0x0506, Phase: protocol.TrialAnswer, LeftMS: 0x0708,
			Predict: 2, Students: 0x090a, Waiting: []grid.PlayerID{0x0b0c, 3}, Note: "answers saved: 3b.csv",
			Trials: []protocol.PerceivedTrial{
				{Run: 1, Round: 0x0102, ID: 0x0304, Predict: true, Answer: protocol.Fine, RTTMS: 0x0506, MeasuredMS: 0x0708},
				{Run: 2, Round: 1, ID: 3, Predict: false, Answer: protocol.NoVerdict, RTTMS: 0, MeasuredMS: protocol.NoRTT},
			},
			Names: []protocol.PlayerInfo{{ID: 0x0304, Color: 2, Name: "ada"}, {ID: 3, Color: 5, Name: "grace ☺"}}}},
		{"queued.bin", &protocol.Queued{Place: 0x01020304, Line: 0x05060708, WaitMS: 0x090a0b0c}},
		{"admission.bin", &protocol.Admission{PerAddr: 0x0102, LineWaitS: 0x0304, LineMax: 0x05060708}},
		{"traces.bin", &protocol.Traces{Traces: []protocol.TraceInfo{
			{Name: "wifi-scan", Title: "Wi-Fi with a background scan every 120 s (100 ms stall)"},
			{Name: "my-commute", Title: "Ü-Bahn: 日本語"},
			{Name: "x"},
		}}},
		{"follow.bin", &protocol.Follow{ID: 0x0102}},
		{"sight.bin", sightExample()},
		{"followed.bin", &protocol.Followed{ID: 0x0102, Sight: *sightExample()}},
		{"code.bin", &protocol.Code{Code: "3b-K7Q2XM"}},
		{"classcode.bin", &protocol.ClassCode{Code: "class-23456Z"}},
		{"crowd.bin", &protocol.Crowd{Bots: 0x0102, AreasOff: true}},
		{"crowded.bin", &protocol.Crowded{Asked: 0x0708, Given: 0x0506, Bots: 0x0304, Most: 0x0506, AreasOff: true,
			Note: "1000 bots asked: the room holds 256 players (-room-players)"}},
		{"counters.bin", &protocol.Counters{IntervalMS: 0x01020304, Players: 0x05060708, Ticks: 0x090a0b0c,
			TickMeanNS: 0x0d0e0f10, TickP99NS: protocol.NoFigure, BudgetNS: 0x11121314, Writes: 0x15161718,
			BytesPerPlayer: 0x191a1b1c, MessagesPerStateMilli: 0x1d1e1f20, CPUPermyriad: 0x21222324, RSS: 0x25262728292a2b2c}},
	}
}

// sightExample is a Sight with every field set, two inputs pending.
func sightExample() *protocol.Sight {
	return &protocol.Sight{
		Pos: grid.Pos{X: 0x0102, Y: 0x0304}, Facing: grid.Right, Ghost: grid.Pos{X: 0x0101, Y: 0x0304},
		HasState: true, Predict: true, Reconcile: true, Interpolate: false,
		Ack: 0x05060708, InterpMS: 0x0102, RTTMS: 0x0304, LatencyMS: 0x0506, Corrections: 0x0708090a,
		Pending: []protocol.SightInput{{Seq: 0x05060709, Dir: grid.Right, AgeMS: 0x0102}, {Seq: 0x0506070a, Dir: grid.None, AgeMS: 7}},
	}
}

// streamExample is a stream of messages whose bytes depend on the frames
// before them on the stream: the golden file is the whole stream as an
// Encoder writes it.
type streamExample struct {
	file string // the golden file's name under testdata/golden
	msgs []protocol.Message
}

// streamExamples returns fresh copies of the golden streams: a State step
// (an idle State after another, then after one with news), between the
// idle States that cannot be steps (time not in whole microseconds, or
// going back).
func streamExamples() []streamExample {
	return []streamExample{
		{"statestep.bin", []protocol.Message{
			&protocol.State{Tick: 0x01020304, TimeNS: 0x0102030405060708, Ack: 0x0a0b0c0d},
			&protocol.State{Tick: 0x01020305, TimeNS: 0x0102030405060708 + 50e6, Ack: 0x0a0b0c0d},
			&protocol.State{Tick: 0x01020306, TimeNS: 0x0102030405060708 + 100e6, Ack: 0x0a0b0c10, Players: []grid.PlayerPos{{ID: 0x0102, Pos: grid.Pos{X: 0x0304, Y: 0x0506}}}},
			&protocol.Ping{Stamp: 0x0102030405060708},
			&protocol.State{Tick: 0x01020406, TimeNS: 0x0102030405060708 + 100e6 + 0x0d0e0f*1000, Ack: 0x0a0b0c10 + 0x0708},
			&protocol.State{Tick: 0x01020407, TimeNS: 0x0102030405060708 + 150e6 + 0x0d0e0f*1000 + 1, Ack: 0x0a0b0d10},
			&protocol.State{Tick: 0x01020408, TimeNS: 0x0102030405060708, Ack: 0x0a0b0d10},
		}},
	}
}

// allTypes lists every message type the package defines.
var allTypes = []protocol.Type{
	protocol.TypeHello, protocol.TypeWelcome, protocol.TypeError, protocol.TypeInput, protocol.TypeState,
	protocol.TypePing, protocol.TypePong, protocol.TypeBye, protocol.TypeJoin, protocol.TypeLeave,
	protocol.TypeSpectate, protocol.TypeSpectating, protocol.TypeOverview, protocol.TypeNotice,
	protocol.TypeZap, protocol.TypeZapResult, protocol.TypeTagged, protocol.TypeScores, protocol.TypeMapChunk,
	protocol.TypeResume, protocol.TypeListRooms, protocol.TypeRooms, protocol.TypeMapBits,
	protocol.TypeProtect, protocol.TypeRanking,
	protocol.TypeTeach, protocol.TypeConditions, protocol.TypeReport, protocol.TypeClass,
	protocol.TypeTrace, protocol.TypeStages, protocol.TypeTraces,
	protocol.TypeQueued, protocol.TypeAdmission,
	protocol.TypePerceive, protocol.TypeTrial, protocol.TypeAnswer, protocol.TypePerception,
	protocol.TypeFollow, protocol.TypeSight, protocol.TypeFollowed,
	protocol.TypeCode, protocol.TypeClassCode,
	protocol.TypeCrowd, protocol.TypeCrowded, protocol.TypeCounters,
}

// mustMarshal encodes m or stops the test.
func mustMarshal(t testing.TB, m protocol.Message) []byte {
	t.Helper()
	b, err := protocol.Marshal(m)
	if err != nil {
		t.Fatalf("Marshal(%#v): %v", m, err)
	}
	return b
}
