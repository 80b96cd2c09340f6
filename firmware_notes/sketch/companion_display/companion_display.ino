// Backgammon Companion serial display: an Arduino (Uno, Nano, Leonardo, ...) with a 16x2
// character LCD on an I2C backpack (PCF8574, address 0x27 or 0x3F).
//
// Libraries: "LiquidCrystal I2C" by Frank de Brabander (Library Manager). Board wiring is in
// ../../WIRING.md, the protocol in ../../PROTOCOL.md. The protocol itself lives in
// companion_protocol.cpp, which the project's tests also compile and run on a PC.
//
// Top line: the verdict ("legal: 24/18 13/10", "illegal: ...") or a newer message.
// Bottom line: whose turn, the dice and the pip counts ("W 6-5 167:160"), or the score at
// game over ("W2 B4 to5 C"). An optional green/red/amber LED trio mirrors the verdict.

#include <Wire.h>
#include <LiquidCrystal_I2C.h>
#include <string.h>

#include "companion_protocol.h"

const uint8_t LCD_ADDRESS = 0x27;  // 0x3F on some backpacks: try it if the screen stays blank
const long BAUD = 115200;           // the host's [serial] baudrate
const int GREEN_PIN = 9;            // optional verdict lights (each through a 220 ohm resistor);
const int RED_PIN = 10;             // set USE_LIGHTS to false when none are wired
const int AMBER_PIN = 11;
const bool USE_LIGHTS = true;
const unsigned long BLINK_MS = 250;

LiquidCrystal_I2C lcd(LCD_ADDRESS, 16, 2);
companion::LineAssembler assembler;
companion::Session session("lcd16x2");
char reply[companion::MAX_FRAME + 1];

void show_lights(unsigned long now) {
  if (!USE_LIGHTS) return;
  const companion::DisplayState& state = session.state();
  bool blink_on = (now / BLINK_MS) % 2 == 0;
  bool green = false, red = false, amber = false;
  if (state.has_verdict) {
    if (strcmp(state.status, "LEGAL") == 0 || strcmp(state.status, "GAME_OVER") == 0) green = true;
    if (strcmp(state.status, "ILLEGAL") == 0) red = blink_on;
    if (strcmp(state.status, "WAITING") == 0) amber = true;
    if (strcmp(state.status, "REROLL") == 0) amber = (now / (2 * BLINK_MS)) % 2 == 0;
    if (strcmp(state.status, "WARNING") == 0) amber = blink_on;
  }
  digitalWrite(GREEN_PIN, green ? HIGH : LOW);
  digitalWrite(RED_PIN, red ? HIGH : LOW);
  digitalWrite(AMBER_PIN, amber ? HIGH : LOW);
}

void redraw() {
  char top[17];
  char bottom[17];
  companion::render_lcd(session.state(), top, bottom);
  lcd.setCursor(0, 0);
  lcd.print(top);
  lcd.setCursor(0, 1);
  lcd.print(bottom);
}

void setup() {
  Serial.begin(BAUD);
  lcd.init();
  lcd.backlight();
  if (USE_LIGHTS) {
    pinMode(GREEN_PIN, OUTPUT);
    pinMode(RED_PIN, OUTPUT);
    pinMode(AMBER_PIN, OUTPUT);
  }
  lcd.setCursor(0, 0);
  lcd.print("Backgammon      ");
  lcd.setCursor(0, 1);
  lcd.print("waiting for host");
  session.take_changed();  // keep the greeting until the host sends something
}

void loop() {
  while (Serial.available() > 0) {
    char received = char(Serial.read());
    companion::LineStatus status = assembler.feed(received);
    if (status == companion::LINE_NONE) continue;
    size_t length = session.handle(assembler.line(), assembler.length(),
                                   status == companion::LINE_TOO_LONG, reply, sizeof reply);
    if (length) Serial.write(reinterpret_cast<const uint8_t*>(reply), length);
    assembler.reset();
  }
  if (session.take_changed()) redraw();
  show_lights(millis());
}
