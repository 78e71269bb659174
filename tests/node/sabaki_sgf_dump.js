// Prints, as JSON, what @sabaki/sgf reads from each SGF file given as an argument: the root's
// properties, the main line (each node's properties), and how many variations the tree has.
const sgf = require('@sabaki/sgf')

const report = {}
for (let file of process.argv.slice(2)) {
  let [root] = sgf.parseFile(file)
  let mainLine = []
  let variations = 0
  for (let n = root; n != null; n = n.children[0]) {
    mainLine.push(n.data)
    variations += Math.max(0, n.children.length - 1)
  }
  report[file] = {root: root.data, mainLine, variations}
}
process.stdout.write(JSON.stringify(report))
