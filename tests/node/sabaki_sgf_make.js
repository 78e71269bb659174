// Writes SGF files the way Sabaki does (with @sabaki/sgf) into the directory given as argument,
// and prints, as JSON, what @sabaki/sgf itself reads back from each: the root's properties and
// the main line's moves. The pytest side (tests/test_sgf_sabaki.py) reads the files with our
// sgf package and compares.
const fs = require('fs')
const path = require('path')
const sgf = require('@sabaki/sgf')

let nextId = 0
function node(data, children = []) {
  return {id: nextId++, data, parentId: null, children}
}

// A main line of nodes from [property, value, extra data] entries, with optional variations
// (each a list of entries) hanging off the node at the given index.
function line(entries, variations = {}) {
  let nodes = entries.map(([prop, value, extra]) => node({[prop]: [value], ...(extra || {})}))
  for (let i = nodes.length - 2; i >= 0; i--) nodes[i].children.push(nodes[i + 1])
  for (let [index, entriesOfVariation] of Object.entries(variations)) {
    nodes[index].children.push(line(entriesOfVariation)[0])
  }
  return nodes
}

function game(rootData, entries, variations) {
  let moves = line(entries, variations)
  return [node(rootData, [moves[0]])]
}

const files = {
  'sabaki_go.sgf': sgf.stringify(game(
    {GM: ['1'], FF: ['4'], CA: ['UTF-8'], AP: ['Sabaki:0.52.2'], KM: ['6.5'], SZ: ['9'],
     DT: ['2026-11-23'], PB: ['Black ]player['], PW: ['White \\ player']},
    [['B', 'ee', {SBKV: ['52.3']}], ['W', 'cc', {SBKV: ['48.1'], C: ['tricky ] comment \\ here']}],
     ['B', 'gg'], ['W', ''], ['B', 'cg', {SBKV: ['60']}]],
    {1: [['W', 'gc', {C: ['a variation']}], ['B', 'cg']]}
  )),
  'sabaki_loose.sgf': sgf.stringify(game(
    {GM: ['1'], FF: ['4'], CA: ['UTF-8'], RU: ['Loose'], KM: ['6'], SZ: ['7']},
    [['B', 'dd'], ['W', 'cd'], ['B', 'ce'], ['W', 'de'], ['B', ''], ['W', '']]
  )),
  'sabaki_odd_restringified.sgf': null,
  'sabaki_odd.sgf':
    '\r\n  (\t;GaMe[1]FileFormat[3]\r\n SiZe [9] KoMi[5.5]PlayerBlack[Old Timer]\r\n' +
    'AddBlack[cc]\n[gg] ;\tWhite[ee]\r\n;Black[tt] ; White [ ce ]\n;Black[dd]C[odd\r\nlines]\r\n)\r\n'
}
files['sabaki_odd_restringified.sgf'] = sgf.stringify(sgf.parse(files['sabaki_odd.sgf']),
                                                       {linebreak: '\r\n', indent: '\t'})

const outDir = process.argv[2]
const report = {}
for (let [name, text] of Object.entries(files)) {
  fs.writeFileSync(path.join(outDir, name), text)
  let [root] = sgf.parse(text)
  let moves = []
  for (let n = root; n != null; n = n.children[0]) {
    for (let prop of ['B', 'W']) {
      if (n.data[prop] != null) moves.push([prop, n.data[prop][0].trim()])
    }
  }
  report[name] = {root: root.data, moves}
}
process.stdout.write(JSON.stringify(report))
