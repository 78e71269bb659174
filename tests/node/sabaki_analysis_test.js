// Analysis in every game, read the way Sabaki reads it.
//
// The engine is driven through @sabaki/gtp (the controller and state tracker Sabaki uses) with
// the commands Sabaki's EngineSyncer sends: `kata-analyze B 10` (Sabaki picks the first of
// analyze, kata-analyze, lz-analyze the engine lists), ended by `protocol_version` (Sabaki's
// sendAbort); `kata-genmove_analyze B 10` queued on the state tracker, which takes the move
// from the `play` line. Lizzie's `kata-analyze ... ownership true` and the Leela Zero dialect
// are read too.
//
// Sabaki's parser lives inside the app (src/modules/analysis.js, parseAnalysis), not in a
// published package, so `sabakiVariations` below follows its rules, restated here:
//   - the engine's line counts only when it starts with "info ";
//   - the line is cut at every "info" keyword; in each segment the principal variation is
//     the run of vertices (letter + digits) or "pass" that reaches the end of the segment; the
//     variation stops at its first pass; a segment where no such run ends it is dropped;
//   - the tokens before that run, minus the last one (the "pv" key), are read strictly as
//     key/value pairs;
//   - a segment whose move is not a vertex (a pass) is dropped;
//   - winrate: kata dialect a float (x 100 for percent), Leela Zero an integer in
//     ten-thousandths (/ 100); older Sabaki releases guess the dialect from a decimal point;
//   - vertices become [x, y] through @sabaki/go-board's parseVertex.
//
// Usage: node sabaki_analysis_test.js PYTHON REPO_DIR   (exit code 0 when every check passes)

const assert = require('assert')
const Board = require('@sabaki/go-board')
const {Controller, ControllerStateTracker} = require('@sabaki/gtp')

const [python, repoDir] = process.argv.slice(2)
const SIZE = 9
const GAMES = [['go', 7.5], ['loose', 6], ['goncrete', 7.5], ['disto', 6.5], ['terrain', 7.5]]
const VERTEX = /^(pass|[A-Za-z]\d+)$/

function sabakiVariations(line, board, winrateFormat) {
  const variations = []
  for (const raw of line.split(/\s*info\s+/).slice(1)) {
    const tokens = raw.trim().split(/\s+/)
    let start = tokens.length
    while (start > 0 && VERTEX.test(tokens[start - 1])) start--
    if (start === tokens.length) continue // no variation reaches the end of the segment
    const run = tokens.slice(start)
    const firstPass = run.indexOf('pass')
    const pv = (firstPass < 0 ? run : run.slice(0, firstPass)).filter(x => x.length >= 2)
    const pairs = tokens.slice(0, start - 1)
    const fields = {}
    for (let i = 0; i < pairs.length; i += 2) fields[pairs[i]] = pairs[i + 1]
    fields.pv = pv
    if (fields.move == null || fields.winrate == null || !/^[A-Za-z]\d+$/.test(fields.move)) continue
    const isFloat = winrateFormat == null ? fields.winrate.includes('.') : winrateFormat === 'float'
    variations.push({
      vertex: board.parseVertex(fields.move),
      visits: +fields.visits,
      winrate: isFloat ? +fields.winrate * 100 : +fields.winrate / 100,
      scoreLead: fields.scoreLead != null ? +fields.scoreLead : null,
      moves: pv.map(x => board.parseVertex(x)),
      pairs: pairs.length
    })
  }
  return variations
}

// Every segment (but a pass) must come through Sabaki's reading whole: its vertices on the
// board and legal, its numbers finite and in range, the same winrate in both dialect modes;
// and the position's value Sabaki and Lizzie take from the line is the best move's.
function checkLine(line, board, format, legal, kata) {
  assert.ok(line.startsWith('info '), line)
  const head = line.split(' ownership ')[0]
  const variations = sabakiVariations(head, board, format)
  const guessed = sabakiVariations(head, board, null)
  const segments = head.split(/\s*info\s+/).slice(1)
  const passes = segments.filter(s => s.startsWith('move pass ')).length
  assert.strictEqual(variations.length, segments.length - passes, `a segment was dropped: ${line}`)
  assert.ok(variations.length > 0, line)
  variations.forEach((v, i) => {
    assert.ok(board.has(v.vertex), `off the board: ${line}`)
    assert.ok(legal.has(board.stringifyVertex(v.vertex)), `illegal ${board.stringifyVertex(v.vertex)}`)
    assert.ok(Number.isInteger(v.visits) && v.visits > 0, line)
    assert.ok(v.winrate >= 0 && v.winrate <= 100, `winrate ${v.winrate}`)
    assert.strictEqual(guessed[i].winrate, v.winrate, 'the decimal point tells the dialect')
    assert.ok(v.pairs % 2 === 0)
    assert.ok(v.moves.length >= 1 && v.moves.every(m => board.has(m)))
    assert.deepStrictEqual(v.moves[0], v.vertex)
    if (kata) assert.ok(Number.isFinite(v.scoreLead), `scoreLead in ${line}`)
    else assert.strictEqual(v.scoreLead, null)
  })
  checkPositionValue(head, variations, format, kata)
  return variations
}

// The position's value as Sabaki's EngineSyncer computes it from one line (the largest win rate
// and score lead among the parsed variations; that is what goes into its graph, SBKV/SBKS) and
// as Lizzie reads it (the first move's) must both be the search's estimate: the best move's,
// the segment with order 0. When the best move is a pass, Sabaki drops it and reads no more
// than it.
function checkPositionValue(line, variations, format, kata) {
  const best = line.split(' info ')[0].split(' ')
  const field = key => best[best.indexOf(key) + 1]
  assert.strictEqual(field('order'), '0', line)
  const bestWinrate = format === 'float' ? +field('winrate') * 100 : +field('winrate') / 100
  const sabakiWinrate = Math.max(...variations.map(({winrate}) => winrate))
  const sabakiLead = Math.max(...variations.map(({scoreLead}) => scoreLead == null ? NaN : scoreLead))
  if (field('move') === 'pass') {
    assert.ok(sabakiWinrate <= bestWinrate, `Sabaki would read ${sabakiWinrate} over the best ${bestWinrate}: ${line}`)
    if (kata) assert.ok(sabakiLead <= +field('scoreLead'), line)
    return
  }
  assert.strictEqual(sabakiWinrate, bestWinrate, `Sabaki would read ${sabakiWinrate}, the best move has ${bestWinrate}: ${line}`)
  assert.strictEqual(variations[0].winrate, bestWinrate, 'Lizzie reads the first move')
  if (kata) assert.strictEqual(sabakiLead, +field('scoreLead'), `Sabaki would read a lead of ${sabakiLead}: ${line}`)
}

// Lizzie's reading of `ownership`: SIZE*SIZE numbers after the keyword, top row first.
function ownershipOf(line, key) {
  const tokens = line.split(' ')
  const at = tokens.indexOf(key)
  assert.ok(at >= 0, `no ${key} in ${line.slice(0, 80)}...`)
  const values = tokens.slice(at + 1, at + 1 + SIZE * SIZE)
  assert.ok(values.every(v => /^-?\d+\.\d+$/.test(v)), `${key}: ${values.join(' ')}`)
  return values.map(Number)
}

async function main() {
  const controller = new Controller(
    python,
    ['-m', 'gtp_engine', '--size', String(SIZE), '--forts', 'auto', '--seed', '5',
     '--playouts', '300', '--threads', '1', '--quiet'],
    {cwd: repoDir}
  )
  const tracker = new ControllerStateTracker(controller)
  const stderr = []
  controller.on('stderr', ({content}) => stderr.push(content))
  controller.start()
  const board = Board.fromDimensions(SIZE)
  const send = async (name, ...args) => {
    const response = await controller.sendCommand({name, args})
    assert.ok(!response.error, `${name} ${args.join(' ')} failed: ${response.content}`)
    return response.content
  }
  const legalFor = async () => new Set((await send('gogui-rules_legal_moves')).split(' '))
  const central = legal => [...legal].filter(v => v !== 'pass').sort((a, b) => {
    const d = v => Math.abs(board.parseVertex(v)[0] - 4) + Math.abs(board.parseVertex(v)[1] - 4)
    return d(a) - d(b) || (a < b ? -1 : 1)
  })[0]

  // An analysis as Sabaki runs it: the command with a subscriber, stopped by protocol_version
  // once `count` reports came; the response must end and the next command be answered.
  async function stream(name, args, count) {
    const lines = []
    let enough
    const arrived = new Promise(resolve => { enough = resolve })
    const analysis = controller.sendCommand({name, args}, ({line}) => {
      if (line.startsWith('info ')) lines.push(line)
      if (lines.length >= count) enough()
    })
    await arrived
    const abort = controller.sendCommand({name: 'protocol_version'})
    const response = await analysis
    assert.ok(!response.error, response.content)
    assert.ok(response.content.split('\n').every(l => l.startsWith('info ')), response.content)
    assert.strictEqual((await abort).content, '2')
    return lines
  }

  try {
    await controller.sendCommand({name: 'list_commands'})
    for (const name of ['kata-analyze', 'lz-analyze', 'kata-genmove_analyze', 'lz-genmove_analyze'])
      assert.ok(await tracker.knowsCommand(name), `list_commands lacks ${name}`)
    assert.ok(!(await tracker.knowsCommand('analyze')), 'Sabaki would take analyze for Leela Zero\'s dialect')

    for (const [variant, komi] of GAMES) {
      await send('variant', variant)
      await send('clear_board')
      const black = central(await legalFor())
      await tracker.sync({komi, boardsize: [SIZE, SIZE], history: [{name: 'play', args: ['B', black]}]})
      const white = central(await legalFor())
      const history = [{name: 'play', args: ['B', black]}, {name: 'play', args: ['W', white]}]
      await tracker.sync({komi, boardsize: [SIZE, SIZE], history})
      assert.strictEqual(await send('variant'), variant)
      const legal = await legalFor()
      const before = await send('gogui-rules_board')

      for (const line of await stream('kata-analyze', ['B', '10'], 3))
        checkLine(line, board, 'float', legal, true)
      for (const line of await stream('lz-analyze', ['B', '10'], 2))
        checkLine(line, board, 'integer', legal, false)
      for (const line of await stream('kata-analyze', ['B', '10', 'ownership', 'true', 'ownershipStdev', 'true'], 2)) {
        checkLine(line, board, 'float', legal, true)
        const ownership = ownershipOf(line, 'ownership')
        const spread = ownershipOf(line, 'ownershipStdev')
        assert.strictEqual(ownership.length, SIZE * SIZE)
        assert.strictEqual(spread.length, SIZE * SIZE)
        assert.ok(ownership.every(x => x >= -1 && x <= 1) && spread.every(x => x >= 0 && x <= 1))
      }
      assert.strictEqual(await send('gogui-rules_board'), before, `${variant}: analysis changed the board`)
      assert.strictEqual(await send('gogui-rules_side_to_move'), 'black')
      assert.deepStrictEqual(tracker.state.history, history)

      // genmove_analyze as Sabaki's generateMove queues it: the move is on our board and in
      // the tracker's history.
      for (const [command, color, mark] of [['kata-genmove_analyze', 'B', 'X'], ['lz-genmove_analyze', 'W', 'O']]) {
        const legalNow = await legalFor()
        let played = null
        const response = await tracker.queueCommand({name: command, args: [color, '10']}, ({line}) => {
          if (line.startsWith('info ')) checkLine(line, board, command.startsWith('kata') ? 'float' : 'integer', legalNow, command.startsWith('kata'))
          if (line.startsWith('play ')) played = line.slice('play '.length).trim()
        })
        assert.ok(!response.error, response.content)
        assert.ok(played != null && legalNow.has(played), `${variant} ${command}: ${played}`)
        const last = tracker.state.history[tracker.state.history.length - 1]
        assert.deepStrictEqual(last, {name: 'play', args: [color, played.toUpperCase()]})
        if (played !== 'pass') {
          const [x, y] = board.parseVertex(played)
          const rows = (await send('gogui-rules_board')).split('\n').map(r => r.trim().split(' '))
          assert.strictEqual(rows[y][x], mark, `${variant}: ${played} is on our board`)
        }
      }
    }
  } catch (err) {
    console.error(stderr.join('\n'))
    throw err
  } finally {
    await controller.stop()
  }
}

main()
  .then(() => console.log('ok'))
  .catch(err => {
    console.error(err)
    process.exit(1)
  })
