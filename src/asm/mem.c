/* Memory helpers of the assembler: growable buffers, a bump arena, growable
 * arrays and the open-addressing symbol hash table. */
#include <stdlib.h>
#include <string.h>

#include "asm_internal.h"

bool abuf_reserve(abuf *b, size_t extra) {
  if (b->len + extra <= b->cap) return true;
  size_t cap = b->cap ? b->cap : 256;
  while (cap < b->len + extra) cap *= 2;
  uint8_t *p = realloc(b->p, cap);
  if (!p) return false;
  b->p = p;
  b->cap = cap;
  return true;
}

bool abuf_put(abuf *b, const void *data, size_t n) {
  if (!n) return true; /* b->p may be NULL */
  if (!abuf_reserve(b, n)) return false;
  if (n) memcpy(b->p + b->len, data, n);
  b->len += n;
  return true;
}

bool abuf_fill(abuf *b, uint8_t byte, size_t n) {
  if (!n) return true; /* b->p may be NULL */
  if (!abuf_reserve(b, n)) return false;
  memset(b->p + b->len, byte, n);
  b->len += n;
  return true;
}

void abuf_free(abuf *b) {
  free(b->p);
  b->p = NULL;
  b->len = b->cap = 0;
}

struct arena_block {
  arena_block *next;
  size_t size;
  max_align_t data[];
};

void *arena_alloc(arena *a, size_t n) {
  n = (n + 15) & ~(size_t)15;
  if (!a->head || a->used + n > a->size) {
    size_t size = n > 65536 ? n : 65536;
    arena_block *b = malloc(sizeof *b + size);
    if (!b) return NULL;
    b->next = a->head;
    b->size = size;
    a->head = b;
    a->used = 0;
    a->size = size;
  }
  void *p = (char *)a->head->data + a->used;
  a->used += n;
  memset(p, 0, n);
  return p;
}

char *arena_strdup(arena *a, const char *s, size_t n) {
  char *p = arena_alloc(a, n + 1);
  if (!p) return NULL;
  memcpy(p, s, n);
  p[n] = 0;
  return p;
}

void arena_free(arena *a) {
  arena_block *b = a->head;
  while (b) {
    arena_block *next = b->next;
    free(b);
    b = next;
  }
  a->head = NULL;
  a->used = a->size = 0;
}

void *avec_push(avec *v) {
  if (v->n == v->cap) {
    size_t cap = v->cap ? v->cap * 2 : 16;
    void *p = realloc(v->p, cap * v->elem);
    if (!p) return NULL;
    v->p = p;
    v->cap = cap;
  }
  void *e = (char *)v->p + v->n * v->elem;
  memset(e, 0, v->elem);
  v->n++;
  return e;
}

void avec_free(avec *v) {
  free(v->p);
  v->p = NULL;
  v->n = v->cap = 0;
}

uint32_t sym_hash(const char *s, size_t n) {
  uint32_t h = 2166136261u;
  for (size_t i = 0; i < n; i++) h = (h ^ (uint8_t)s[i]) * 16777619u;
  return h;
}

asym *symtab_find(const symtab *t, const char *s, size_t n, uint32_t h) {
  if (!t->cap) return NULL;
  size_t m = t->cap - 1;
  for (size_t i = h & m;; i = (i + 1) & m) {
    asym *e = t->slots[i];
    if (!e) return NULL;
    if (e->hash == h && e->len == n && memcmp(e->name, s, n) == 0) return e;
  }
}

static bool symtab_grow(symtab *t) {
  size_t cap = t->cap ? t->cap * 2 : 256;
  asym **slots = calloc(cap, sizeof *slots);
  if (!slots) return false;
  for (size_t i = 0; i < t->cap; i++) {
    asym *e = t->slots[i];
    if (!e) continue;
    size_t j = e->hash & (cap - 1);
    while (slots[j]) j = (j + 1) & (cap - 1);
    slots[j] = e;
  }
  free(t->slots);
  t->slots = slots;
  t->cap = cap;
  return true;
}

bool symtab_insert(symtab *t, asym *s) {
  if ((t->count + 1) * 2 > t->cap && !symtab_grow(t)) return false;
  size_t m = t->cap - 1, i = s->hash & m;
  while (t->slots[i]) i = (i + 1) & m;
  t->slots[i] = s;
  t->count++;
  return true;
}

void symtab_free(symtab *t) {
  free(t->slots);
  t->slots = NULL;
  t->cap = t->count = 0;
}
