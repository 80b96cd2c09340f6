// Just enough of the Arduino core to compile companion_display.ino on a PC, recording what the
// sketch does: the bytes it writes to Serial and the level of each pin. Test doubles only; the
// real board uses the real core.
#ifndef ARDUINO_STUB_H
#define ARDUINO_STUB_H

#include <stddef.h>
#include <stdint.h>

#include <deque>
#include <map>
#include <string>

typedef uint8_t byte;
const int HIGH = 1;
const int LOW = 0;
const int OUTPUT = 1;

struct StubSerial {
  std::deque<char> input;
  std::string output;
  long baud = 0;
  void begin(long rate) { baud = rate; }
  int available() { return int(input.size()); }
  int read() {
    if (input.empty()) return -1;
    char c = input.front();
    input.pop_front();
    return static_cast<unsigned char>(c);
  }
  size_t write(const uint8_t* data, size_t length) {
    output.append(reinterpret_cast<const char*>(data), length);
    return length;
  }
  void receive(const std::string& bytes) { input.insert(input.end(), bytes.begin(), bytes.end()); }
};

extern StubSerial Serial;
extern std::map<int, int> stub_pins;
extern std::map<int, int> stub_pin_modes;
extern unsigned long stub_millis;

inline void pinMode(int pin, int mode) { stub_pin_modes[pin] = mode; }
inline void digitalWrite(int pin, int level) { stub_pins[pin] = level; }
inline unsigned long millis() { return stub_millis; }

#endif
