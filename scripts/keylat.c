/* keylat: how long a window takes to answer a key, measured from outside as the time from an
 * XTest key press to the first change of pixels in a screen region.
 * Usage: keylat X Y W H KEYSYM COUNT GAP_MS [SENDLOG]  (prints one latency in ms per key, or
 * "timeout"; with SENDLOG, appends to that file the Unix time in ns at which each key was sent)
 * Build: gcc -O2 -o keylat keylat.c -lX11 -l:libXtst.so.6 (scripts/savelat.sh builds it; the XTest
 * header is declared here so that libxtst-dev is not needed). Used by scripts/savelat.sh. */
#include <X11/Xlib.h>
#include <X11/Xutil.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

extern int XTestFakeKeyEvent(Display *, unsigned int, Bool, unsigned long);

static double now_ms(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return t.tv_sec * 1e3 + t.tv_nsec / 1e6;
}

int main(int argc, char **argv) {
  if (argc != 8 && argc != 9) { fprintf(stderr, "usage: keylat X Y W H KEYSYM COUNT GAP_MS [SENDLOG]\n"); return 2; }
  FILE *sendlog = NULL;
  if (argc == 9 && !(sendlog = fopen(argv[8], "a"))) { perror(argv[8]); return 1; }
  int x = atoi(argv[1]), y = atoi(argv[2]), w = atoi(argv[3]), h = atoi(argv[4]);
  int count = atoi(argv[6]), gap = atoi(argv[7]);
  Display *d = XOpenDisplay(NULL);
  if (!d) { fprintf(stderr, "no display\n"); return 1; }
  Window root = DefaultRootWindow(d);
  KeyCode kc = XKeysymToKeycode(d, XStringToKeysym(argv[5]));
  size_t n = (size_t)w * h * 4;
  for (int k = 0; k < count; k++) {
    XImage *base = XGetImage(d, root, x, y, w, h, AllPlanes, ZPixmap);
    char *before = malloc(n);
    memcpy(before, base->data, n);
    XDestroyImage(base);
    double t0 = now_ms();
    if (sendlog) {
      struct timespec rt;
      clock_gettime(CLOCK_REALTIME, &rt);
      fprintf(sendlog, "%lld\n", (long long)rt.tv_sec * 1000000000LL + rt.tv_nsec);
      fflush(sendlog);
    }
    XTestFakeKeyEvent(d, kc, True, 0);
    XTestFakeKeyEvent(d, kc, False, 0);
    XFlush(d);
    double dt = -1;
    while (now_ms() - t0 < 3000) {
      XImage *img = XGetImage(d, root, x, y, w, h, AllPlanes, ZPixmap);
      int diff = memcmp(before, img->data, n) != 0;
      XDestroyImage(img);
      if (diff) { dt = now_ms() - t0; break; }
      usleep(1000);
    }
    free(before);
    if (dt < 0) printf("timeout\n"); else printf("%.1f\n", dt);
    fflush(stdout);
    usleep(gap * 1000);
  }
  XCloseDisplay(d);
  if (sendlog) fclose(sendlog);
  return 0;
}
