// A Compose runtime composition with no UI: a Recomposer driven by a
// BroadcastFrameClock, a Composition over a tree of plain nodes (an
// Applier of our own), and snapshot state changes that recompose it. The
// tree is printed after each frame; the output does not depend on timing.
package modern.compose

import androidx.compose.runtime.AbstractApplier
import androidx.compose.runtime.BroadcastFrameClock
import androidx.compose.runtime.Composable
import androidx.compose.runtime.ComposeNode
import androidx.compose.runtime.Composition
import androidx.compose.runtime.LaunchedEffect
import androidx.compose.runtime.Recomposer
import androidx.compose.runtime.derivedStateOf
import androidx.compose.runtime.getValue
import androidx.compose.runtime.key
import androidx.compose.runtime.mutableStateListOf
import androidx.compose.runtime.mutableStateOf
import androidx.compose.runtime.remember
import androidx.compose.runtime.setValue
import androidx.compose.runtime.snapshots.Snapshot
import kotlinx.coroutines.launch
import kotlinx.coroutines.runBlocking
import kotlinx.coroutines.yield

class Node(var text: String = "") {
    val children = mutableListOf<Node>()
    fun render(indent: String = ""): String =
        indent + text + children.joinToString("") { "\n" + it.render("$indent  ") }
}

class NodeApplier(root: Node) : AbstractApplier<Node>(root) {
    override fun insertTopDown(index: Int, instance: Node) {
        current.children.add(index, instance)
    }

    override fun insertBottomUp(index: Int, instance: Node) {}

    override fun remove(index: Int, count: Int) {
        repeat(count) { current.children.removeAt(index) }
    }

    override fun move(from: Int, to: Int, count: Int) {
        val moved = (0 until count).map { current.children.removeAt(from) }
        current.children.addAll(if (to > from) to - count else to, moved)
    }

    override fun onClear() {
        root.children.clear()
    }
}

@Composable
fun Text(text: String) {
    ComposeNode<Node, NodeApplier>(factory = { Node() }, update = { set(text) { this.text = it } })
}

@Composable
fun Group(title: String, content: @Composable () -> Unit) {
    ComposeNode<Node, NodeApplier>(factory = { Node() }, update = { set(title) { this.text = it } }, content = content)
}

class Model {
    var count by mutableStateOf(0)
    val items = mutableStateListOf("a", "b")
}

@Composable
fun Screen(model: Model, effects: MutableList<String>) {
    val even by remember { derivedStateOf { model.count % 2 == 0 } }
    Group("screen") {
        Text("count ${model.count}")
        if (even) Text("even") else Text("odd")
        Group("items") {
            for (item in model.items) {
                key(item) { Text(item) }
            }
        }
    }
    LaunchedEffect(model.count) { effects += "effect ${model.count}" }
}

fun main() = runBlocking {
    val clock = BroadcastFrameClock()
    val recomposer = Recomposer(coroutineContext + clock)
    val loop = launch(clock) { recomposer.runRecomposeAndApplyChanges() }
    val root = Node("root")
    val model = Model()
    val effects = mutableListOf<String>()
    val composition = Composition(NodeApplier(root), recomposer)
    composition.setContent { Screen(model, effects) }

    suspend fun frame(label: String) {
        Snapshot.sendApplyNotifications()
        repeat(3) { yield() }
        clock.sendFrame(0L)
        repeat(3) { yield() }
        println("-- $label")
        println(root.render())
    }

    frame("first")
    model.count = 1
    frame("count 1")
    Snapshot.withMutableSnapshot {
        model.count = 2
        model.items.add("c")
    }
    frame("count 2, c added")
    model.items.remove("a")
    model.items.add(0, "z")
    frame("a removed, z first")
    println(effects.joinToString(", "))
    composition.dispose()
    recomposer.cancel()
    loop.join()
}
