/* pipe_word.h: a short word another process of the check writes on a pipe
 * and then closes (a canary's report, the sudo job's answer, the check's
 * word for procs_visible), read to its end: at most cap bytes, waiting for
 * more at most until a deadline. What was written by then is read even
 * when the deadline has passed: only what is still missing is late. */
#ifndef HP_PIPE_WORD_H
#define HP_PIPE_WORD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Read fd into buf (cap bytes) until its writers close it (*ended true),
 * an error, cap bytes, or end_ms (hp_os_now_ms's clock) with nothing
 * more to read (*ended false); the bytes read. */
size_t hp_os_pipe_word(int fd, void *buf, size_t cap, int64_t end_ms, bool *ended);

#endif
