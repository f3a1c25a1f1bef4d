// The coroutine program of the modern gate: suspend functions and suspend
// lambdas (their state machines), withContext across dispatchers, a Flow,
// and cancellation with an exception thrown through suspension points, over
// 10,000 coroutines. Its output does not depend on scheduling.
package modern.kt

import kotlinx.coroutines.CancellationException
import kotlinx.coroutines.CoroutineExceptionHandler
import kotlinx.coroutines.Dispatchers
import kotlinx.coroutines.Job
import kotlinx.coroutines.async
import kotlinx.coroutines.awaitAll
import kotlinx.coroutines.cancelAndJoin
import kotlinx.coroutines.coroutineScope
import kotlinx.coroutines.delay
import kotlinx.coroutines.flow.Flow
import kotlinx.coroutines.flow.filter
import kotlinx.coroutines.flow.flow
import kotlinx.coroutines.flow.fold
import kotlinx.coroutines.flow.map
import kotlinx.coroutines.launch
import kotlinx.coroutines.runBlocking
import kotlinx.coroutines.supervisorScope
import kotlinx.coroutines.withContext
import kotlinx.coroutines.yield
import java.util.concurrent.atomic.AtomicInteger

class Boom(val at: Int) : RuntimeException("boom at $at")

/** Suspends on Default, then on IO, then returns. */
suspend fun weigh(i: Int): Long {
    val a = withContext(Dispatchers.Default) {
        yield()
        i.toLong() * 3
    }
    val b = withContext(Dispatchers.IO) {
        delay(1)
        a + 1
    }
    return b
}

/** Throws from deep inside suspension points. */
suspend fun failing(i: Int, depth: Int): Int {
    if (depth == 0) {
        yield()
        throw Boom(i)
    }
    delay(0)
    return failing(i, depth - 1) + 1
}

fun numbers(n: Int): Flow<Int> = flow {
    for (i in 1..n) {
        if (i % 100 == 0) yield()
        emit(i)
    }
}

suspend fun flowSum(n: Int): Long =
    numbers(n).filter { it % 3 != 0 }.map { it.toLong() * it }.fold(0L) { acc, v -> acc + v }

fun main() = runBlocking {
    // 10,000 coroutines, each suspending on two dispatchers.
    val total = coroutineScope {
        (0 until 10_000).map { i -> async(Dispatchers.Default) { weigh(i) } }.awaitAll().sum()
    }
    println("weights: $total")

    // Exceptions through suspension points, caught by the caller.
    var caught = 0
    for (i in 0 until 200) {
        try {
            failing(i, i % 7)
        } catch (e: Boom) {
            if (e.at == i) caught++
        }
    }
    println("caught: $caught")

    // Failing children of a supervisor: the handler sees each once.
    val handled = AtomicInteger()
    val handler = CoroutineExceptionHandler { _, e -> if (e is Boom) handled.incrementAndGet() }
    supervisorScope {
        val jobs = (0 until 100).map { i -> launch(Dispatchers.Default + handler) { failing(i, 3) } }
        jobs.forEach { it.join() }
    }
    println("handled: ${handled.get()}")

    // Cancellation: children suspended in delay get CancellationException.
    val cancelled = AtomicInteger()
    val parent: Job = launch(Dispatchers.Default) {
        repeat(1_000) {
            launch {
                try {
                    delay(60_000)
                } catch (e: CancellationException) {
                    cancelled.incrementAndGet()
                    throw e
                }
            }
        }
    }
    while (parent.children.count() < 1_000) yield()
    delay(20)
    parent.cancelAndJoin()
    println("cancelled: ${cancelled.get()}")

    println("flow: ${flowSum(30_000)}")
}
