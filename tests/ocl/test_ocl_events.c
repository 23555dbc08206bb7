/* Events of the vt OpenCL platform: user events holding back commands in
 * one queue and, through wait lists, in another; callbacks and their
 * statuses; failed events propagating to waiting commands; markers,
 * barriers and waits; profiling times (ordered, present only on profiling
 * queues and for finished commands). */
#include <pthread.h>
#include <time.h>

#include "ocl_test_util.h"

typedef struct seen {
  int n;
  cl_int status[8];
  cl_int when[8];
} seen;

static seen calls;
static void CL_CALLBACK on_status(cl_event e, cl_int status, void *user) {
  (void)e;
  if (calls.n < 8) {
    calls.status[calls.n] = status;
    calls.when[calls.n] = (cl_int)(intptr_t)user;
    calls.n++;
  }
}

static cl_int status_of(cl_event e) {
  cl_int s = 99;
  clGetEventInfo(e, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof s, &s, NULL);
  return s;
}

TEST(user_event_holds_commands) {
  fx f;
  if (fx_open(st, &f)) return;
  cl_int err;
  cl_event user = clCreateUserEvent(f.ctx, &err);
  CHECK_CL(st, err, CL_SUCCESS);
  CHECK(st, status_of(user) == CL_SUBMITTED);
  cl_command_type type = 0;
  CHECK_CL(st, clGetEventInfo(user, CL_EVENT_COMMAND_TYPE, sizeof type, &type, NULL), CL_SUCCESS);
  CHECK(st, type == CL_COMMAND_USER);
  uint32_t a = 0x11111111, b = 0x22222222, out = 0;
  cl_mem m = clCreateBuffer(f.ctx, CL_MEM_COPY_HOST_PTR, 4, &a, &err);
  cl_event w1, w2;
  CHECK_CL(st, clEnqueueWriteBuffer(f.q, m, CL_FALSE, 0, 4, &b, 1, &user, &w1), CL_SUCCESS);
  /* a second queue reads after the held write (cross-queue wait list) */
  cl_command_queue q2 = clCreateCommandQueue(f.ctx, f.dev, 0, &err);
  CHECK_CL(st, clEnqueueReadBuffer(q2, m, CL_FALSE, 0, 4, &out, 1, &w1, &w2), CL_SUCCESS);
  /* a later command of the first queue waits too (in order) */
  uint32_t after = 0;
  CHECK_CL(st, clEnqueueReadBuffer(f.q, m, CL_FALSE, 0, 4, &after, 0, NULL, NULL), CL_SUCCESS);
  CHECK(st, status_of(w1) == CL_QUEUED && status_of(w2) == CL_QUEUED && out == 0 && after == 0);
  calls.n = 0;
  CHECK_CL(st, clSetEventCallback(w2, CL_COMPLETE, on_status, (void *)CL_COMPLETE), CL_SUCCESS);
  CHECK_CL(st, clSetEventCallback(w2, CL_SUBMITTED, on_status, (void *)CL_SUBMITTED),
           CL_SUCCESS);
  CHECK(st, calls.n == 0);
  CHECK_CL(st, clSetUserEventStatus(user, CL_RUNNING), CL_INVALID_VALUE);
  CHECK_CL(st, clSetUserEventStatus(user, CL_COMPLETE), CL_SUCCESS);
  CHECK_CL(st, clSetUserEventStatus(user, CL_COMPLETE), CL_INVALID_OPERATION);
  CHECK_CL(st, clWaitForEvents(1, &w2), CL_SUCCESS);
  CHECK_CL(st, clFinish(f.q), CL_SUCCESS);
  CHECK(st, out == b && after == b && status_of(w1) == CL_COMPLETE);
  CHECK(st, calls.n == 2 && calls.when[0] == CL_SUBMITTED && calls.status[0] == CL_SUBMITTED &&
                calls.when[1] == CL_COMPLETE && calls.status[1] == CL_COMPLETE);
  /* registered after completion: called at once */
  CHECK_CL(st, clSetEventCallback(w2, CL_RUNNING, on_status, (void *)CL_RUNNING), CL_SUCCESS);
  CHECK(st, calls.n == 3 && calls.status[2] == CL_RUNNING);
  CHECK_CL(st, clSetEventCallback(w2, 7, on_status, NULL), CL_INVALID_VALUE);
  CHECK_CL(st, clSetEventCallback(w2, CL_COMPLETE, NULL, NULL), CL_INVALID_VALUE);
  CHECK_CL(st, clSetUserEventStatus(w1, CL_COMPLETE), CL_INVALID_EVENT); /* not a user event */
  clReleaseEvent(w1);
  clReleaseEvent(w2);
  clReleaseEvent(user);
  clReleaseMemObject(m);
  clReleaseCommandQueue(q2);
  fx_close(&f);
}

TEST(failed_event_propagates) {
  fx f;
  if (fx_open(st, &f)) return;
  cl_int err;
  cl_event user = clCreateUserEvent(f.ctx, &err);
  uint32_t v = 5, out = 7;
  cl_mem m = clCreateBuffer(f.ctx, CL_MEM_COPY_HOST_PTR, 4, &v, &err);
  cl_event w, marker;
  CHECK_CL(st, clEnqueueReadBuffer(f.q, m, CL_FALSE, 0, 4, &out, 1, &user, &w), CL_SUCCESS);
  CHECK_CL(st, clEnqueueMarkerWithWaitList(f.q, 0, NULL, &marker), CL_SUCCESS);
  calls.n = 0;
  CHECK_CL(st, clSetEventCallback(w, CL_COMPLETE, on_status, NULL), CL_SUCCESS);
  CHECK_CL(st, clSetUserEventStatus(user, -1234), CL_SUCCESS);
  CHECK_CL(st, clWaitForEvents(1, &w), CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST);
  CHECK(st, status_of(w) == CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST && out == 7);
  CHECK(st, calls.n == 1 && calls.status[0] == CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST);
  CHECK(st, status_of(user) == -1234);
  CHECK(st, status_of(marker) == CL_COMPLETE); /* the queue goes on */
  CHECK_CL(st, clEnqueueReadBuffer(f.q, m, CL_TRUE, 0, 4, &out, 1, &user, NULL),
           CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST);
  CHECK_CL(st, clEnqueueReadBuffer(f.q, m, CL_TRUE, 0, 4, &out, 0, NULL, NULL), CL_SUCCESS);
  CHECK(st, out == 5);
  clReleaseEvent(marker);
  clReleaseEvent(w);
  clReleaseEvent(user);
  clReleaseMemObject(m);
  fx_close(&f);
}

TEST(markers_barriers_waits) {
  fx f;
  if (fx_open(st, &f)) return;
  cl_int err;
  cl_event user = clCreateUserEvent(f.ctx, &err), marker, barrier, old;
  uint32_t v = 1, out = 0;
  cl_mem m = clCreateBuffer(f.ctx, CL_MEM_COPY_HOST_PTR, 4, &v, &err);
  CHECK_CL(st, clEnqueueMarkerWithWaitList(f.q, 1, &user, &marker), CL_SUCCESS);
  CHECK_CL(st, clEnqueueBarrierWithWaitList(f.q, 0, NULL, &barrier), CL_SUCCESS);
  CHECK_CL(st, clEnqueueMarker(f.q, &old), CL_SUCCESS);
  CHECK_CL(st, clEnqueueWaitForEvents(f.q, 1, &user), CL_SUCCESS);
  CHECK_CL(st, clEnqueueBarrier(f.q), CL_SUCCESS);
  CHECK_CL(st, clEnqueueReadBuffer(f.q, m, CL_FALSE, 0, 4, &out, 0, NULL, NULL), CL_SUCCESS);
  cl_command_type t = 0;
  CHECK_CL(st, clGetEventInfo(marker, CL_EVENT_COMMAND_TYPE, sizeof t, &t, NULL), CL_SUCCESS);
  CHECK(st, t == CL_COMMAND_MARKER);
  CHECK_CL(st, clGetEventInfo(barrier, CL_EVENT_COMMAND_TYPE, sizeof t, &t, NULL), CL_SUCCESS);
  CHECK(st, t == CL_COMMAND_BARRIER);
  CHECK(st, status_of(marker) == CL_QUEUED && status_of(old) == CL_QUEUED && out == 0);
  cl_command_queue q = NULL;
  cl_context c = NULL;
  CHECK_CL(st, clGetEventInfo(marker, CL_EVENT_COMMAND_QUEUE, sizeof q, &q, NULL), CL_SUCCESS);
  CHECK_CL(st, clGetEventInfo(marker, CL_EVENT_CONTEXT, sizeof c, &c, NULL), CL_SUCCESS);
  CHECK(st, q == f.q && c == f.ctx);
  CHECK_CL(st, clSetUserEventStatus(user, CL_COMPLETE), CL_SUCCESS);
  CHECK_CL(st, clFinish(f.q), CL_SUCCESS);
  CHECK(st, status_of(old) == CL_COMPLETE && out == 1);
  cl_event both[2] = {marker, barrier};
  CHECK_CL(st, clWaitForEvents(2, both), CL_SUCCESS);
  CHECK_CL(st, clWaitForEvents(0, both), CL_INVALID_VALUE);
  fx g;
  if (fx_open(st, &g) == 0) { /* events of two contexts */
    cl_event other = clCreateUserEvent(g.ctx, &err);
    cl_event mixed[2] = {marker, other};
    CHECK_CL(st, clWaitForEvents(2, mixed), CL_INVALID_CONTEXT);
    CHECK_CL(st, clEnqueueMarkerWithWaitList(f.q, 1, &other, NULL), CL_INVALID_CONTEXT);
    clSetUserEventStatus(other, CL_COMPLETE);
    clReleaseEvent(other);
    fx_close(&g);
  }
  cl_uint refs = 0;
  CHECK_CL(st, clRetainEvent(marker), CL_SUCCESS);
  CHECK_CL(st, clGetEventInfo(marker, CL_EVENT_REFERENCE_COUNT, sizeof refs, &refs, NULL),
           CL_SUCCESS);
  CHECK(st, refs == 2);
  clReleaseEvent(marker);
  clReleaseEvent(marker);
  clReleaseEvent(barrier);
  clReleaseEvent(old);
  clReleaseEvent(user);
  clReleaseMemObject(m);
  fx_close(&f);
}

static cl_ulong prof(cl_event e, cl_profiling_info what, cl_int *err) {
  cl_ulong t = 0;
  *err = clGetEventProfilingInfo(e, what, sizeof t, &t, NULL);
  return t;
}

TEST(profiling) {
  fx f;
  if (fx_open(st, &f)) return;
  cl_int err;
  static uint8_t data[1 << 20];
  cl_mem m = clCreateBuffer(f.ctx, 0, sizeof data, NULL, &err);
  cl_event e1, e2;
  CHECK_CL(st, clEnqueueWriteBuffer(f.q, m, CL_TRUE, 0, sizeof data, data, 0, NULL, &e1),
           CL_SUCCESS);
  CHECK_CL(st, clEnqueueReadBuffer(f.q, m, CL_TRUE, 0, sizeof data, data, 0, NULL, &e2),
           CL_SUCCESS);
  cl_int e[8];
  cl_ulong q1 = prof(e1, CL_PROFILING_COMMAND_QUEUED, &e[0]);
  cl_ulong s1 = prof(e1, CL_PROFILING_COMMAND_SUBMIT, &e[1]);
  cl_ulong b1 = prof(e1, CL_PROFILING_COMMAND_START, &e[2]);
  cl_ulong n1 = prof(e1, CL_PROFILING_COMMAND_END, &e[3]);
  cl_ulong q2 = prof(e2, CL_PROFILING_COMMAND_QUEUED, &e[4]);
  cl_ulong b2 = prof(e2, CL_PROFILING_COMMAND_START, &e[5]);
  cl_ulong n2 = prof(e2, CL_PROFILING_COMMAND_END, &e[6]);
  for (int i = 0; i < 7; i++) CHECK_CL(st, e[i], CL_SUCCESS);
  CHECK(st, q1 <= s1 && s1 <= b1 && b1 < n1 && n1 <= q2 && q2 <= b2 && b2 < n2);
  prof(e1, 0x7777, &e[7]);
  CHECK_CL(st, e[7], CL_INVALID_VALUE);
  cl_command_queue plain = clCreateCommandQueue(f.ctx, f.dev, 0, &err);
  cl_event e3, user = clCreateUserEvent(f.ctx, &err), e4;
  CHECK_CL(st, clEnqueueReadBuffer(plain, m, CL_TRUE, 0, 16, data, 0, NULL, &e3), CL_SUCCESS);
  prof(e3, CL_PROFILING_COMMAND_END, &e[0]);
  CHECK_CL(st, e[0], CL_PROFILING_INFO_NOT_AVAILABLE); /* not a profiling queue */
  prof(user, CL_PROFILING_COMMAND_END, &e[0]);
  CHECK_CL(st, e[0], CL_PROFILING_INFO_NOT_AVAILABLE); /* user event */
  CHECK_CL(st, clEnqueueReadBuffer(f.q, m, CL_FALSE, 0, 16, data, 1, &user, &e4), CL_SUCCESS);
  prof(e4, CL_PROFILING_COMMAND_QUEUED, &e[0]);
  CHECK_CL(st, e[0], CL_PROFILING_INFO_NOT_AVAILABLE); /* not finished */
  clSetUserEventStatus(user, CL_COMPLETE);
  clFinish(f.q);
  prof(e4, CL_PROFILING_COMMAND_END, &e[0]);
  CHECK_CL(st, e[0], CL_SUCCESS);
  clReleaseEvent(e1);
  clReleaseEvent(e2);
  clReleaseEvent(e3);
  clReleaseEvent(e4);
  clReleaseEvent(user);
  clReleaseCommandQueue(plain);
  clReleaseMemObject(m);
  fx_close(&f);
}

/* Threads: one blocks in a read held by a user event and in clFinish;
 * another sets the event. */
typedef struct waiter {
  fx *f;
  cl_mem m;
  cl_event user;
  uint32_t out;
  cl_int read_rc, finish_rc;
} waiter;

static void *wait_thread(void *arg) {
  waiter *w = arg;
  w->read_rc = clEnqueueReadBuffer(w->f->q, w->m, CL_TRUE, 0, 4, &w->out, 1, &w->user, NULL);
  w->finish_rc = clFinish(w->f->q);
  return NULL;
}

TEST(another_thread_completes_a_user_event) {
  fx f;
  if (fx_open(st, &f)) return;
  cl_int err;
  uint32_t v = 0x600d;
  waiter w = {&f, NULL, NULL, 0, 99, 99};
  w.m = clCreateBuffer(f.ctx, CL_MEM_COPY_HOST_PTR, 4, &v, &err);
  w.user = clCreateUserEvent(f.ctx, &err);
  pthread_t t;
  CHECK(st, pthread_create(&t, NULL, wait_thread, &w) == 0);
  struct timespec pause = {0, 20 * 1000 * 1000};
  nanosleep(&pause, NULL);
  CHECK(st, w.read_rc == 99); /* still blocked */
  CHECK_CL(st, clSetUserEventStatus(w.user, CL_COMPLETE), CL_SUCCESS);
  pthread_join(t, NULL);
  CHECK(st, w.read_rc == CL_SUCCESS && w.finish_rc == CL_SUCCESS && w.out == 0x600d);
  clReleaseEvent(w.user);
  clReleaseMemObject(w.m);
  fx_close(&f);
}

/* A queue released with a command still waiting keeps it: it runs when
 * the user event completes. */
TEST(released_queue_finishes_its_commands) {
  fx f;
  if (fx_open(st, &f)) return;
  cl_int err;
  cl_command_queue q = clCreateCommandQueue(f.ctx, f.dev, 0, &err);
  cl_event user = clCreateUserEvent(f.ctx, &err), w;
  uint32_t v = 9, out = 0;
  cl_mem m = clCreateBuffer(f.ctx, CL_MEM_COPY_HOST_PTR, 4, &v, &err);
  CHECK_CL(st, clEnqueueReadBuffer(q, m, CL_FALSE, 0, 4, &out, 1, &user, &w), CL_SUCCESS);
  CHECK_CL(st, clReleaseCommandQueue(q), CL_SUCCESS);
  CHECK_CL(st, clReleaseMemObject(m), CL_SUCCESS);
  CHECK(st, out == 0);
  CHECK_CL(st, clSetUserEventStatus(user, CL_COMPLETE), CL_SUCCESS);
  CHECK_CL(st, clWaitForEvents(1, &w), CL_SUCCESS);
  CHECK(st, out == 9);
  clReleaseEvent(w);
  clReleaseEvent(user);
  fx_close(&f);
}

RUN_TESTS(T(user_event_holds_commands), T(failed_event_propagates), T(markers_barriers_waits),
          T(profiling), T(another_thread_completes_a_user_event),
          T(released_queue_finishes_its_commands))
