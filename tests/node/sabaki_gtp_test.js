// Drive the engine the way Sabaki does, through @sabaki/gtp (the controller Sabaki uses).
//
// Start-up as Sabaki's EngineSyncer sends it: name, version, protocol_version, list_commands
// and the user's "commands" field split on ';', all pipelined before any reply is read. Then
// the ControllerStateTracker syncs games (komi, boardsize, clear_board, play, undo), genmove
// is queued as Sabaki queues it, and the true board is read back with gogui-rules_board.
//
// Usage: node sabaki_gtp_test.js PYTHON REPO_DIR   (exit code 0 when every check passes)

const assert = require('assert')
const {Controller, ControllerStateTracker, Command} = require('@sabaki/gtp')

const [python, repoDir] = process.argv.slice(2)

// Loose, RULES L2 first example, in the lower-left corner of a 9x9 board: White D3 makes C3
// a false liberty, and black B3 (no true liberty left) flips.
//   5 . . . . .          5 . . . . .
//   4 . O O . .          4 . O O . .
//   3 O X . . .   ->     3 O O . O .
//   2 . O O . .          2 . O O . .
//   1 . . . . .          1 . . . . .
//     A B C D E            A B C D E
const play = (color, vertex) => ({name: 'play', args: [color, vertex]})
const setup = [
  play('B', 'B3'), play('W', 'B4'), play('W', 'C4'),
  play('W', 'A3'), play('W', 'B2'), play('W', 'C2')
]
const flip = play('W', 'D3')

const empty = '. . . . . . . . .'
const rowsOf = board => board.split('\n').map(line => line.trim())
const expectRows = (rows, bottom) => {
  // `bottom` lists rows 5 down to 1; rows 9..6 are empty
  assert.deepStrictEqual(rows, [empty, empty, empty, empty, ...bottom])
}

async function main() {
  const controller = new Controller(python, ['-m', 'gtp_engine', '--seed', '5', '--playouts', '100'], {cwd: repoDir})
  const tracker = new ControllerStateTracker(controller)
  const stderr = []
  controller.on('stderr', ({content}) => stderr.push(content))
  controller.start()

  const send = async (name, ...args) => {
    const response = await controller.sendCommand({name, args})
    assert.ok(!response.error, `${name} ${args.join(' ')} failed: ${response.content}`)
    return response.content
  }
  const board = async () => rowsOf(await send('gogui-rules_board'))

  try {
    // Start-up, pipelined exactly as Sabaki does it.
    const userCommands = 'variant loose; komi 2'
    const startup = await Promise.all([
      controller.sendCommand({name: 'name'}),
      controller.sendCommand({name: 'version'}),
      controller.sendCommand({name: 'protocol_version'}),
      controller.sendCommand({name: 'list_commands'}),
      ...userCommands.split(';').filter(x => x.trim() !== '')
        .map(text => controller.sendCommand(Command.fromString(text)))
    ])
    startup.forEach(r => assert.ok(!r.error, r.content))
    assert.strictEqual(startup[0].content, 'vargo')
    assert.strictEqual(startup[2].content, '2')
    const commands = startup[3].content.split('\n')
    for (const needed of ['undo', 'clear_board', 'play', 'genmove', 'gogui-rules_board'])
      assert.ok(commands.includes(needed), `list_commands lacks ${needed}`)
    assert.ok(await tracker.knowsCommand('undo'))

    // First sync: komi, boardsize, clear_board, then every move (White several times in a row).
    await tracker.sync({komi: 2, boardsize: [9, 9], history: [...setup, flip]})
    assert.strictEqual(await send('variant'), 'loose', 'boardsize/clear_board kept the rules')
    expectRows(await board(), [
      '. . . . . . . . .',
      '. O O . . . . . .',
      'O O . O . . . . .',
      '. O O . . . . . .',
      '. . . . . . . . .'
    ])
    assert.strictEqual(await send('last_move_info'), 'flipped B3')

    // genmove as Sabaki queues it: the engine plays the move on its own board.
    const move = await tracker.queueCommand({name: 'genmove', args: ['B']})
    assert.ok(!move.error, move.content)
    assert.match(move.content, /^[A-HJ-T][1-9]$/)
    const history = tracker.state.history
    assert.deepStrictEqual(history[history.length - 1], play('B', move.content))
    const col = 'ABCDEFGHJ'.indexOf(move.content[0])
    const row = 9 - Number(move.content.slice(1))
    const afterGenmove = await board()
    assert.strictEqual(afterGenmove[row].split(' ')[col], 'X', 'the generated move is on our board')

    // Rewind to before the flip: the tracker undoes (two undos: genmove and D3).
    await tracker.sync({komi: 2, boardsize: [9, 9], history: setup})
    expectRows(await board(), [
      '. . . . . . . . .',
      '. O O . . . . . .',
      'O X . . . . . . .',
      '. O O . . . . . .',
      '. . . . . . . . .'
    ])
    assert.strictEqual(await send('gogui-rules_side_to_move'), 'black')

    // Another branch from there: undo nothing, play on.
    await tracker.sync({komi: 2, boardsize: [9, 9], history: [...setup, play('B', 'E5')]})
    expectRows(await board(), [
      '. . . . X . . . .',
      '. O O . . . . . .',
      'O X . . . . . . .',
      '. O O . . . . . .',
      '. . . . . . . . .'
    ])

    // A history sharing nothing: clear_board and a full replay; the flip happens again.
    await tracker.sync({komi: 2, boardsize: [9, 9], history: [play('B', 'J9'), ...setup.slice(1), play('B', 'B3'), flip]})
    const replayed = await board()
    assert.strictEqual(replayed[0], '. . . . . . . . X')
    assert.strictEqual(replayed[6], 'O O . O . . . . .')
    assert.strictEqual(await send('variant'), 'loose')
    // White 7 stones + komi 2 against Black's 1 (RULES L4): komi 2 survived boardsize/clear_board.
    assert.strictEqual(await send('final_score'), 'W+8')

    // A refused move (D3 is occupied) changes nothing and the session goes on.
    const refused = await controller.sendCommand({name: 'play', args: ['B', 'D3']})
    assert.ok(refused.error)
    assert.deepStrictEqual(await board(), replayed)
  } catch (err) {
    console.error(stderr.join('\n'))
    throw err
  } finally {
    await controller.stop()
  }
}

// Terrain Go through Sabaki: forts from the command line survive boardsize and clear_board
// (RULES T8), genmove plays on our board, and a rewind to the empty board keeps map and forts.
async function terrain() {
  const controller = new Controller(
    python, ['-m', 'gtp_engine', '--variant', 'terrain', '--size', '9', '--forts', 'auto', '--seed', '3', '--playouts', '100'],
    {cwd: repoDir}
  )
  const tracker = new ControllerStateTracker(controller)
  controller.start()
  const send = async (name, ...args) => {
    const response = await controller.sendCommand({name, args})
    assert.ok(!response.error, `${name} ${args.join(' ')} failed: ${response.content}`)
    return response.content
  }
  try {
    await controller.sendCommand({name: 'list_commands'})
    const forts = await send('forts')
    const map = await send('terrain_show')
    assert.strictEqual(forts.split(' ').length, 8, 'two forts each on 9x9')
    await tracker.sync({komi: 7.5, boardsize: [9, 9], history: []})
    assert.strictEqual(await send('forts'), forts)
    const first = await tracker.queueCommand({name: 'genmove', args: ['B']})
    const second = await tracker.queueCommand({name: 'genmove', args: ['W']})
    assert.ok(!first.error && !second.error, first.content + second.content)
    const stones = (await send('gogui-rules_board')).split(/\s+/).filter(x => x === 'X' || x === 'O')
    assert.strictEqual(stones.length, 2)
    await tracker.sync({komi: 7.5, boardsize: [9, 9], history: [{name: 'play', args: ['B', first.content]}]})
    assert.strictEqual(await send('gogui-rules_side_to_move'), 'white')
    await tracker.sync({komi: 7.5, boardsize: [9, 9], history: [{name: 'play', args: ['W', second.content]}]})
    assert.strictEqual(await send('forts'), forts, 'clear_board keeps the forts')
    assert.strictEqual(await send('terrain_show'), map, 'and the map')
    assert.strictEqual(await send('gogui-rules_side_to_move'), 'black')
  } finally {
    await controller.stop()
  }
}

main()
  .then(terrain)
  .then(() => console.log('ok'))
  .catch(err => {
    console.error(err)
    process.exit(1)
  })
